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

    /// What a dialogue between `source` and `target` says of its translation: one line where the
    /// two pass what is said on as it was said, else one for each direction, `source`'s first,
    /// with no translation installed; and, where `noTranslator`, that there is no translator.
    func notices(between source: LocaleTag, and target: LocaleTag, noTranslator: Bool) async -> [String] {
        if await passesOnAsSaid(from: source, to: target), await passesOnAsSaid(from: target, to: source) {
            return [source == target
                ? "both sides speak \(source): what one says is passed on to the other as it was said"
                : "\(source) and \(target) are one language: what one side says is passed on to the other as it was said"]
        }
        guard let translator else {
            return noTranslator ? ["translation is unavailable: what is said is shown but not translated"] : []
        }
        var notices: [String] = []
        for (from, to) in [(source, target), (target, source)] where !(await translator.canTranslate(from: from, to: to)) {
            notices.append("no translation from \(from) to \(to) is installed; see `parley languages`")
        }
        return notices
    }

    /// `text`, said in `source`, in `target`.
    func translate(_ text: String, from source: LocaleTag, to target: LocaleTag) async throws -> TranslationResult {
        if await passesOnAsSaid(from: source, to: target) { return TranslationResult(source: text, text: text) }
        guard let translator else { throw TranslationUnavailable() }
        return try await translator.translate(text, from: source, to: target)
    }

    /// `text`, said in `source`, in the language of each of `listeners` (parties numbered from
    /// 1): once per language, in parallel, each translation for every listener of its language,
    /// in the order the languages first appear. A translation that fails says why instead.
    func translations(of text: String, from source: LocaleTag, for listeners: [(party: Int, locale: LocaleTag)],
                      clock: SessionClock) async -> [RoomTranslation] {
        var groups: [(locale: LocaleTag, parties: [Int])] = []
        for listener in listeners {
            if let group = groups.firstIndex(where: { $0.locale == listener.locale }) {
                groups[group].parties.append(listener.party)
            } else {
                groups.append((listener.locale, [listener.party]))
            }
        }
        return await withTaskGroup(of: (Int, RoomTranslation).self) { group in
            for (order, listener) in groups.enumerated() {
                group.addTask {
                    var translation = RoomTranslation(parties: listener.parties, locale: listener.locale, text: nil,
                                                      pivots: [], unknownWords: [], failure: nil, translated: 0)
                    do {
                        let result = try await translate(text, from: source, to: listener.locale)
                        translation.text = result.text
                        translation.pivots = result.pivots
                        translation.unknownWords = result.unknownWords
                    } catch {
                        translation.failure = "\(error)"
                    }
                    translation.translated = clock.now()
                    return (order, translation)
                }
            }
            var results: [(Int, RoomTranslation)] = []
            for await result in group { results.append(result) }
            return results.sorted { $0.0 < $1.0 }.map(\.1)
        }
    }
}

/// No translator is installed.
struct TranslationUnavailable: Error, CustomStringConvertible {
    var description: String { "translation is unavailable in this session; the text was not translated" }
}
