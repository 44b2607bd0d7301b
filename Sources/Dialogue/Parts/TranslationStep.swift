import ParleyCore

/// How a conversation puts what one person said into another person's language: one rule for
/// a dialogue's turns and clauses and a room's utterances and clauses.
///
/// Two locales of one language (en-US and en-GB) with no translation installed between them
/// pass the words on as they were said; any other pair goes through the translator, and
/// without one the words are not translated (`TranslationUnavailable`).
struct TranslationStep: Sendable {
    /// The conversation's translator; nil where none is installed.
    let translator: (any Translator)?

    /// Whether what is said in `source` goes to `target` as it was said.
    func passesOnAsSaid(from source: LocaleTag, to target: LocaleTag) async -> Bool {
        guard source.language == target.language else { return false }
        guard let translator else { return true }
        return !(await translator.canTranslate(from: source, to: target))
    }

    /// `text`, said in `source`, in `target`.
    func translate(_ text: String, from source: LocaleTag, to target: LocaleTag) async throws -> TranslationResult {
        if await passesOnAsSaid(from: source, to: target) { return TranslationResult(source: text, text: text) }
        guard let translator else { throw TranslationUnavailable() }
        return try await translator.translate(text, from: source, to: target)
    }
}

/// No translator is installed.
struct TranslationUnavailable: Error, CustomStringConvertible {
    var description: String { "translation is unavailable in this session; the text was not translated" }
}
