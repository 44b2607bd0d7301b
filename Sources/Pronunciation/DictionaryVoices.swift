public import Locales
import Foundation

/// The eSpeak NG voices that speak a language, from the locale tables.
public enum DictionaryVoices {
    /// The voice that speaks a bare language (the synthesis priority table's
    /// choice) first, then the language's other voices.
    public static func voices(for language: String, registry: LocaleRegistry) throws -> [String] {
        let preferred = try registry.resolve(language, for: .synthesis)
        let ordered = [preferred] + registry.catalog.locales(ofLanguage: language).map(\.tag).filter { $0 != preferred }
        var voices: [String] = []
        for tag in ordered {
            if let voice = registry.catalog.info(for: tag)?.espeakVoice, !voices.contains(voice) { voices.append(voice) }
        }
        guard !voices.isEmpty else { throw PronunciationError.noVoice(language: language) }
        return voices
    }
}
