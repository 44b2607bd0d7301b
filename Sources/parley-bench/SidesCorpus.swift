import ArgumentParser
import Foundation
import ParleyCore
import ProcessHarness
import Recognition

/// The clips of `parley-bench sides`. Tuning set (the one the decision's
/// weights and the worker's pair rules were chosen on): every English recording
/// of pocketsphinx-testdata (people), and Spanish sentences of a traveller's
/// conversation synthesized by eSpeak NG in four voices at three speeds.
/// Held-out set (never used to choose anything): Spanish sentences of another
/// topic (shopping and home) in three other voices at two other speeds, and
/// English sentences in eSpeak NG's American voices.
enum SidesCorpus {
    struct Clip {
        var name: String
        var locale: LocaleTag
        var samples: [Int16]
        var heldOut = false
        var isEnglish: Bool { locale.language == "en" }
    }

    /// eSpeak NG sentences in one language: each sentence spoken in voices and speeds taken in turn.
    struct Synthesized {
        var locale: LocaleTag
        var sentences: [String]
        var voices: [String]
        var speeds: [Int]
        var heldOut: Bool
    }

    static let englishNames = RecognitionCorpus.names + (1...5).map { String(format: "cards/%03d.wav", $0) }

    /// What a person says in a conversation with a traveller: short and long, questions and answers.
    static let spanishSentences = [
        "buenos días", "sí, gracias", "¿dónde está la estación de tren?", "el tren sale a las ocho de la mañana",
        "no entiendo lo que dice", "¿cuánto cuesta una habitación doble?", "la cuenta, por favor",
        "mi hermano vive en Madrid desde hace tres años", "¿puede hablar más despacio?", "está a la derecha",
        "necesito un médico", "el museo cierra los lunes", "quisiera reservar una mesa para dos personas",
        "hace mucho calor hoy", "¿a qué hora abre la farmacia?", "tome el autobús número doce",
        "perdone, me he perdido", "la playa está a diez minutos andando", "no, prefiero el pescado",
        "¿tiene usted una habitación libre esta noche?", "mañana vamos a visitar la catedral", "de nada",
        "el vuelo llega con una hora de retraso", "me gusta mucho esta ciudad",
    ]
    static let voices = ["es", "es-419", "es+f3", "es-419+m3"]
    static let speeds = [130, 150, 170]

    /// Held out: shopping, the home and the family; no sentence of the tuning set.
    static let heldOutSpanish = [
        "¿cuánto cuestan estas manzanas?", "quiero un kilo de tomates", "¿tiene pan integral?", "la tienda cierra a las nueve",
        "necesito comprar leche y huevos", "¿puedo pagar con tarjeta?", "esta camisa es demasiado grande",
        "¿dónde están los probadores?", "me llevo los zapatos negros", "el supermercado está al lado del banco",
        "hoy hay ofertas en la fruta", "¿me da una bolsa, por favor?", "mi hija cumple años el sábado",
        "vamos a cocinar arroz con pollo", "la lavadora no funciona", "tengo que llamar al fontanero",
        "los niños juegan en el parque", "ayer llovió toda la tarde", "¿quieres un café con leche?",
        "el mercado abre los domingos por la mañana", "busco un regalo para mi madre", "no queda azúcar en casa",
        "el cartero llega a las diez", "¿a qué hora empieza la película?",
    ]
    static let heldOutSpanishVoices = ["es+m1", "es-419+f2", "es+f4"]
    /// Held out: synthetic English, a traveller's errands.
    static let heldOutEnglish = [
        "could you tell me where the post office is", "I would like a cup of tea", "we are leaving tomorrow morning",
        "how much is the ticket to the city", "my phone battery is almost empty", "please call me when you arrive",
        "the weather was lovely yesterday", "is there a bank near here", "I lost my keys at the station",
        "can we meet after lunch", "thank you very much for your help", "the shop closes at six",
    ]
    static let heldOutEnglishVoices = ["en-us", "en-us+f2", "en-us+m1"]
    static let heldOutSpeeds = [140, 160]

    static let synthesized = [
        Synthesized(locale: LocaleTag("es-ES")!, sentences: spanishSentences, voices: voices, speeds: speeds, heldOut: false),
        Synthesized(locale: LocaleTag("es-ES")!, sentences: heldOutSpanish, voices: heldOutSpanishVoices,
                    speeds: heldOutSpeeds, heldOut: true),
        Synthesized(locale: LocaleTag("en-US")!, sentences: heldOutEnglish, voices: heldOutEnglishVoices,
                    speeds: heldOutSpeeds, heldOut: true),
    ]

    static func load() throws -> [Clip] {
        var clips = try englishNames.map { name in
            Clip(name: name, locale: LocaleTag("en-US")!,
                 samples: try AudioFileReader.read("\(RecognitionCorpus.directory)/\(name)").samples)
        }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("parley-sides-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        var number = 0
        for set in synthesized {
            for (index, sentence) in set.sentences.enumerated() {
                let (voice, speed) = (set.voices[index % set.voices.count], set.speeds[index % set.speeds.count])
                let path = directory.appendingPathComponent("\(number).wav").path
                number += 1
                let made = try ProcessRunner.run(["espeak-ng", "-v", voice, "-s", String(speed), "-w", path, sentence])
                guard made.status == 0 else { throw ValidationError("espeak-ng failed: \(made.stderr)") }
                clips.append(Clip(name: "\(voice) \(speed): \(sentence)", locale: set.locale,
                                  samples: try AudioFileReader.read(path).samples, heldOut: set.heldOut))
            }
        }
        return clips
    }
}
