/// A sentence translated from one locale into another.
public struct TranslationResult: Sendable, Hashable, Codable {
    /// What was translated.
    public var source: String
    /// The translation, with no unknown-word marks: ready to be spoken.
    public var text: String
    /// Words the translator did not know and passed through untranslated.
    public var unknownWords: [String]
    /// The glossary and phrasebook entries that decided part of the text, as `source → target`.
    public var glossaryEntries: [String]
    /// The languages the text went through, source first and target last (`["fr", "es", "en"]`)
    /// when it was translated through another language; empty for a direct translation.
    public var route: [String]

    /// The languages between the source and the target (`["es"]`); empty for a direct translation.
    public var pivots: [String] { route.count > 2 ? Array(route.dropFirst().dropLast()) : [] }

    /// Creates a result.
    public init(source: String, text: String, unknownWords: [String] = [], glossaryEntries: [String] = [],
                route: [String] = []) {
        self.source = source
        self.text = text
        self.unknownWords = unknownWords
        self.glossaryEntries = glossaryEntries
        self.route = route
    }
}

extension TranslationResult {
    /// Decodes a result; one written before glossaries or routes existed has neither.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(source: try container.decode(String.self, forKey: .source), text: try container.decode(String.self, forKey: .text),
                  unknownWords: try container.decode([String].self, forKey: .unknownWords),
                  glossaryEntries: try container.decodeIfPresent([String].self, forKey: .glossaryEntries) ?? [],
                  route: try container.decodeIfPresent([String].self, forKey: .route) ?? [])
    }
}

/// Translates text between locales.
public protocol Translator: AnyObject, Sendable {
    /// Whether a direction from `source` to `target` is installed.
    func canTranslate(from source: LocaleTag, to target: LocaleTag) async -> Bool

    /// Translates `text`; throws when the direction is missing or the engine fails twice.
    func translate(_ text: String, from source: LocaleTag, to target: LocaleTag) async throws -> TranslationResult
}
