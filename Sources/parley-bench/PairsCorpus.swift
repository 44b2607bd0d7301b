import ArgumentParser
import Foundation
import ParleyCore
import ProcessHarness
import Recognition

/// The clips of `parley-bench pairs`: for each language, sentences of a traveller's
/// conversation and the short answers a listener gives ("sí", "ok"), synthesized by eSpeak NG
/// in two voices at two speeds; English adds every human recording of pocketsphinx-testdata.
/// None of them chose anything in the side decision (its weights were chosen on `sides`'
/// tuning set).
enum PairsCorpus {
    struct Clip {
        var name: String
        var locale: LocaleTag
        var samples: [Int16]
        /// One or two words: where the language says least.
        var isShort: Bool
        /// The eSpeak NG voice that said it; nil for a human recording.
        var voice: String? = nil
        /// Said only in the conversations of one voice per side (`Language.oneVoiceSentences`).
        var oneVoiceOnly = false
    }

    struct Language {
        var sentences: [String]
        var short: [String]
        var voices: [String]
        /// Sentences said only where each side has one voice: English's sentences elsewhere are
        /// the human recordings, of several readers.
        var oneVoiceSentences: [String] = []
    }

    static let speeds = [140, 160]

    static let languages: [String: Language] = [
        "en": Language(sentences: [], short: ["yes", "okay", "thank you", "no"], voices: ["en-us", "en-us+f2"],
                       oneVoiceSentences: [
                           "how much do these apples cost?", "I want a kilo of tomatoes", "the shop closes at nine",
                           "I need to buy milk and eggs", "can I pay by card?", "this shirt is too big",
                           "the supermarket is next to the bank", "my daughter has her birthday on Saturday",
                           "it rained all afternoon yesterday", "what time does the film start?",
                       ]),
        "es": Language(sentences: [
            "¿cuánto cuestan estas manzanas?", "quiero un kilo de tomates", "la tienda cierra a las nueve",
            "necesito comprar leche y huevos", "¿puedo pagar con tarjeta?", "esta camisa es demasiado grande",
            "el supermercado está al lado del banco", "mi hija cumple años el sábado",
            "ayer llovió toda la tarde", "¿a qué hora empieza la película?",
        ], short: ["sí", "vale", "gracias", "no"], voices: ["es", "es-419+f2"]),
        "fr": Language(sentences: [
            "où est la gare, s'il vous plaît?", "je voudrais une chambre pour deux nuits", "le train part à huit heures",
            "je ne comprends pas ce que vous dites", "combien coûte ce billet?", "pouvez-vous parler plus lentement?",
            "le musée est fermé le lundi", "nous avons réservé une table pour ce soir",
            "il fait très chaud aujourd'hui", "ma sœur habite à Lyon depuis trois ans",
        ], short: ["oui", "d'accord", "merci", "non"], voices: ["fr", "fr+f3"]),
        "pt": Language(sentences: [
            "onde fica a estação de comboios?", "queria um quarto para duas noites", "o comboio parte às oito horas",
            "não percebo o que está a dizer", "quanto custa este bilhete?", "pode falar mais devagar?",
            "o museu fecha às segundas-feiras", "reservámos uma mesa para esta noite",
            "hoje está muito calor", "a minha irmã vive em Lisboa há três anos",
        ], short: ["sim", "obrigado", "está bem", "não"], voices: ["pt", "pt+f3"]),
        "ca": Language(sentences: [
            "on és l'estació de tren, si us plau?", "voldria una habitació per a dues nits", "el tren surt a les vuit del matí",
            "no entenc el que diu", "quant costa aquest bitllet?", "pot parlar més a poc a poc?",
            "el museu tanca els dilluns", "hem reservat una taula per a aquesta nit",
            "avui fa molta calor", "la meva germana viu a Girona des de fa tres anys",
        ], short: ["sí", "d'acord", "gràcies", "no"], voices: ["ca", "ca+f3"]),
        "it": Language(sentences: [
            "dov'è la stazione, per favore?", "vorrei una camera per due notti", "il treno parte alle otto",
            "non capisco quello che dice", "quanto costa questo biglietto?", "può parlare più lentamente?",
            "il museo è chiuso il lunedì", "abbiamo prenotato un tavolo per stasera",
            "oggi fa molto caldo", "mia sorella abita a Torino da tre anni",
        ], short: ["sì", "va bene", "grazie", "no"], voices: ["it", "it+f3"]),
    ]

    /// The eSpeak NG voices that say `locale`'s clips, a man's first.
    static func voices(of locale: LocaleTag) -> [String] { languages[locale.language]?.voices ?? [] }

    /// The clips in `locale`'s language, synthesized into `directory`.
    static func clips(_ locale: LocaleTag, in directory: URL) throws -> [Clip] {
        guard let language = languages[locale.language] else {
            throw ValidationError("no clips for \(locale): the bench speaks \(languages.keys.sorted().joined(separator: ", "))")
        }
        var clips: [Clip] = []
        if locale.language == "en" {
            clips = try SidesCorpus.englishNames.map { name in
                Clip(name: name, locale: locale, samples: try AudioFileReader.read("\(RecognitionCorpus.directory)/\(name)").samples,
                     isShort: false)
            }
        }
        // The one-voice sentences come last, so that the other clips keep their voices and speeds.
        let spoken = language.sentences.map { ($0, false) } + language.short.map { ($0, true) }
            + language.oneVoiceSentences.map { ($0, false) }
        for (index, (text, isShort)) in spoken.enumerated() {
            let (voice, speed) = (language.voices[index % language.voices.count], speeds[(index / 2) % speeds.count])
            let path = directory.appendingPathComponent("\(locale.language)-\(index).wav").path
            let made = try ProcessRunner.run(["espeak-ng", "-v", voice, "-s", String(speed), "-w", path, text])
            guard made.status == 0 else { throw ValidationError("espeak-ng failed: \(made.stderr)") }
            clips.append(Clip(name: "\(voice) \(speed): \(text)", locale: locale, samples: try AudioFileReader.read(path).samples,
                              isShort: isShort, voice: voice,
                              oneVoiceOnly: index >= language.sentences.count + language.short.count))
        }
        return clips
    }
}
