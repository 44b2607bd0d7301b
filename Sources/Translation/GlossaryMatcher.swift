/// Finds a glossary's terms in a sentence and its phrasebook entry for a whole sentence.
///
/// Terms are indexed by their first word, so a sentence costs one dictionary
/// look-up per word however large the glossary is. A term matches whole words,
/// case-insensitively, with any run of spaces between its words; where terms
/// overlap, the one starting first wins, and of those the longest.
///
/// ```swift
/// let matcher = GlossaryMatcher(entries: [GlossaryEntry(kind: .term, source: "train station", target: "estación de tren")])
/// matcher.terms(in: "Where is the Train  Station?")   // one match, "Train  Station"
/// ```
public struct GlossaryMatcher: Sendable {
    /// A term found in a sentence.
    public struct Match: Sendable, Equatable {
        /// The entry.
        public var entry: GlossaryEntry
        /// Where it is in the sentence's characters.
        public var range: Range<Int>
        /// The sentence's text at `range`.
        public var matched: String
    }

    private var termsByFirstWord: [String: [(entry: GlossaryEntry, key: [Character])]] = [:]
    private var phrases: [String: GlossaryEntry] = [:]

    /// How many terms and phrases the matcher holds.
    public private(set) var count = 0

    /// A matcher for `entries`.
    public init(entries: [GlossaryEntry]) {
        for entry in entries {
            switch entry.kind {
            case .phrase: phrases[entry.key] = entry
            case .term:
                let key = Array(entry.key)
                termsByFirstWord[Self.firstWord(key, from: 0), default: []].append((entry, key))
            }
        }
        for word in termsByFirstWord.keys { termsByFirstWord[word]?.sort { $0.key.count > $1.key.count } }
        count = entries.count
    }

    /// The phrasebook entry for the whole of `text`, if there is one.
    public func phrase(for text: String) -> GlossaryEntry? {
        phrases.isEmpty ? nil : phrases[GlossaryEntry.key(for: text, kind: .phrase)]
    }

    /// The terms found in `text`, in order, never overlapping.
    public func terms(in text: String) -> [Match] {
        guard !termsByFirstWord.isEmpty else { return [] }
        let characters = Array(text)
        let lowered = characters.map(Self.lowered)
        var matches: [Match] = []
        var index = 0
        while index < lowered.count {
            let startsWord = Self.isWordCharacter(lowered[index]) && (index == 0 || !Self.isWordCharacter(lowered[index - 1]))
            if startsWord, let (entry, end) = longestTerm(in: lowered, at: index) {
                matches.append(Match(entry: entry, range: index..<end, matched: String(characters[index..<end])))
                index = end
            } else {
                index += 1
            }
        }
        return matches
    }

    /// The longest term that starts at `index` (a word's start) and where it ends.
    private func longestTerm(in text: [Character], at index: Int) -> (GlossaryEntry, Int)? {
        for candidate in termsByFirstWord[Self.firstWord(text, from: index)] ?? [] {
            if let end = Self.match(candidate.key, in: text, at: index) { return (candidate.entry, end) }
        }
        return nil
    }

    /// Whether `character` is part of a word: a letter, a digit, or a combining mark.
    public static func isWordCharacter(_ character: Character) -> Bool {
        character.isLetter || character.isNumber
    }

    /// The end of `key` matched in `text` at `start` (a run of spaces matching one space), or nil.
    private static func match(_ key: [Character], in text: [Character], at start: Int) -> Int? {
        var position = start
        for character in key {
            guard position < text.count else { return nil }
            if character == " " {
                guard text[position].isWhitespace else { return nil }
                while position < text.count, text[position].isWhitespace { position += 1 }
            } else {
                guard text[position] == character else { return nil }
                position += 1
            }
        }
        let endsWord = position == text.count || !isWordCharacter(text[position]) || !isWordCharacter(key[key.count - 1])
        return endsWord ? position : nil
    }

    /// The run of word characters at `start`.
    private static func firstWord(_ text: [Character], from start: Int) -> String {
        var end = start
        while end < text.count, isWordCharacter(text[end]) { end += 1 }
        return String(text[start..<end])
    }

    /// A character lower-cased, kept as it is when lower-casing would make it more than one character.
    private static func lowered(_ character: Character) -> Character {
        let lower = character.lowercased()
        return lower.count == 1 ? Character(lower) : character
    }
}
