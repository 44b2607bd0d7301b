import ArgumentParser
import Foundation
import ParleyCore
import ProcessHarness
import Recognition

/// The clips of `parley-bench sides`: every English recording of
/// pocketsphinx-testdata (people), and Spanish sentences synthesized by
/// eSpeak NG in four voices at three speeds.
enum SidesCorpus {
    struct Clip {
        var name: String
        var locale: LocaleTag
        var samples: [Int16]
        var isEnglish: Bool { locale.language == "en" }
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

    static func load() throws -> [Clip] {
        var clips = try englishNames.map { name in
            Clip(name: name, locale: LocaleTag("en-US")!,
                 samples: try AudioFileReader.read("\(RecognitionCorpus.directory)/\(name)").samples)
        }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("parley-sides-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        for (index, sentence) in spanishSentences.enumerated() {
            let (voice, speed) = (voices[index % voices.count], speeds[index % speeds.count])
            let path = directory.appendingPathComponent("\(index).wav").path
            let made = try ProcessRunner.run(["espeak-ng", "-v", voice, "-s", String(speed), "-w", path, sentence])
            guard made.status == 0 else { throw ValidationError("espeak-ng failed: \(made.stderr)") }
            clips.append(Clip(name: "\(voice) \(speed): \(sentence)", locale: LocaleTag("es-ES")!,
                              samples: try AudioFileReader.read(path).samples))
        }
        return clips
    }
}
