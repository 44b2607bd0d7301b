public import Dialogue
public import ParleyCore

/// What the REPL needs from the rest of the program; the executable fills it
/// from the real locale tables and pronunciation dictionaries.
public struct ReplServices: Sendable {
    /// Turns what a person typed after `:a`/`:b` into a locale, or throws a one-sentence error.
    public var resolveLocale: @Sendable (String) throws -> LocaleTag
    /// The `:languages` text.
    public var languages: @Sendable () async -> String
    /// Runs `:dict …` with its arguments and returns what to print.
    public var dictionary: @Sendable ([String]) async -> String
    /// Runs `:glossary …` with its arguments and returns what to print.
    public var glossary: @Sendable ([String]) async -> String = { _ in "translation glossaries are unavailable" }
    /// Runs `:recognizer`: the locales of sides A and B, the side to change and the recognizer
    /// to choose (both nil to show); returns what to print.
    public var recognizer: @Sendable (_ a: LocaleTag, _ b: LocaleTag, _ side: DialogueSide?, _ name: String?) async -> String
    /// Runs `:phrases` with what followed it (nil to show); returns what to print.
    public var phrases: @Sendable (String?) async -> String
    /// Tab completion candidates.
    public var completion: CompletionSource

    /// Creates services; the defaults accept canonical locale tags only and have no dictionary.
    public init(resolveLocale: @escaping @Sendable (String) throws -> LocaleTag = ReplServices.parseTag,
                languages: @escaping @Sendable () async -> String = { "no language overview is available" },
                dictionary: @escaping @Sendable ([String]) async -> String = { _ in "pronunciation dictionaries are unavailable" },
                recognizer: @escaping @Sendable (LocaleTag, LocaleTag, DialogueSide?, String?) async -> String
                    = { _, _, _, _ in "speech recognition is unavailable" },
                phrases: @escaping @Sendable (String?) async -> String = { _ in "speech recognition is unavailable" },
                completion: CompletionSource = CompletionSource()) {
        self.resolveLocale = resolveLocale
        self.languages = languages
        self.dictionary = dictionary
        self.recognizer = recognizer
        self.phrases = phrases
        self.completion = completion
    }

    /// Accepts a well-formed tag such as `fr-FR`.
    public static let parseTag: @Sendable (String) throws -> LocaleTag = { text in
        guard let tag = LocaleTag(text) else { throw CommandError("'\(text)' is not a locale such as fr-FR") }
        return tag
    }
}
