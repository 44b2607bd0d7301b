import Locales
import ParleyCore
import PocketSphinxRecognition
import WhisperRecognition

/// No installed recognizer hears a locale: what is missing, in words, and what would serve it.
struct UnservedRecognition: Error, CustomStringConvertible {
    /// The locale, e.g. sq-AL.
    var locale: LocaleTag
    /// Its language's English name, e.g. Albanian.
    var languageName: String?
    /// The locales PocketSphinx has models for.
    var pocketSphinxLocales: [LocaleTag]
    /// Why Whisper cannot run, when it cannot (`a Whisper model`, its Python environment).
    var whisperProblem: String?
    /// Whether the installed Whisper model knows the language.
    var whisperKnowsLanguage: Bool
    /// Whether `--recognizer pocketsphinx` left Whisper out.
    var whisperExcluded: Bool

    /// The facts for `locale` from the installation Parley found.
    init(locale: LocaleTag, registry: LocaleRegistry, installation: WhisperInstallation,
         models: PocketSphinxModelRegistry, whisperExcluded: Bool) {
        self.locale = locale
        languageName = registry.names.languageName(locale.language)
        pocketSphinxLocales = models.supportedLocales
        whisperProblem = installation.problem
        whisperKnowsLanguage = installation.models.first.map { ModelLanguageCode.whisperServes(locale, languages: $0.languages()) } ?? false
        self.whisperExcluded = whisperExcluded
    }

    var description: String {
        let named = languageName.map { "\($0) (\(locale))" } ?? "\(locale)"
        let sphinx = pocketSphinxLocales.isEmpty ? "PocketSphinx has no model"
            : "PocketSphinx has models for \(pocketSphinxLocales.map(\.description).joined(separator: ", ")) only"
        if whisperExcluded, whisperProblem == nil, whisperKnowsLanguage {
            return "no speech model for \(named): \(sphinx); Whisper serves it: drop --recognizer pocketsphinx"
        }
        if let whisperProblem {
            return "no speech model for \(named): \(sphinx), and Whisper, which hears 99 languages, is missing "
                + "\(whisperProblem); Whisper would serve it: run `make models` in Parley's source tree"
        }
        return "no speech model for \(named): \(sphinx), and the installed Whisper model does not know the language; "
            + "a Whisper model that knows it, or a PocketSphinx model for it, would serve it (`parley models add DIR`)"
    }
}
