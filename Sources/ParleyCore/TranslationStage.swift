/// A sentence translated from one locale into another.
public struct TranslationResult: Sendable, Hashable, Codable {
    /// What was translated.
    public var source: String
    /// The translation, with no unknown-word marks: ready to be spoken.
    public var text: String
    /// Words the translator did not know and passed through untranslated.
    public var unknownWords: [String]

    /// Creates a result.
    public init(source: String, text: String, unknownWords: [String] = []) {
        self.source = source
        self.text = text
        self.unknownWords = unknownWords
    }
}

/// Translates text between locales.
public protocol Translator: AnyObject, Sendable {
    /// Whether a direction from `source` to `target` is installed.
    func canTranslate(from source: LocaleTag, to target: LocaleTag) async -> Bool

    /// Translates `text`; throws when the direction is missing or the engine fails twice.
    func translate(_ text: String, from source: LocaleTag, to target: LocaleTag) async throws -> TranslationResult
}
