import Foundation

/// A word Apertium could not translate, as its marks report it.
public struct UnknownWord: Sendable, Hashable, Codable, CustomStringConvertible {
    /// Which stage of the pipeline did not know the word.
    public enum Kind: String, Sendable, Hashable, Codable, CaseIterable {
        /// `*word`: the source-language analyser does not know the word; it is passed through.
        case notInSourceDictionary = "*"
        /// `@word`: the bilingual dictionary has no translation for it.
        case notInBilingualDictionary = "@"
        /// `#word`: the target-language generator cannot inflect it.
        case notGenerated = "#"
    }

    /// The word as it appears in the clean translation, without surrounding punctuation.
    public var word: String
    /// What went wrong.
    public var kind: Kind

    /// Creates an unknown word.
    public init(word: String, kind: Kind) {
        self.word = word
        self.kind = kind
    }

    /// The word with its Apertium mark, e.g. `*xyzzy`.
    public var description: String { kind.rawValue + word }
}

/// Finds the unknown words of a sentence by comparing the marked translation
/// (`-g`) with the clean one (`-n`).
///
/// The marked text is the clean text with a mark inserted before each unknown
/// word, so the two are walked side by side and every character the marked
/// text has in addition is a mark. A `*` or `#` the person typed is in both
/// texts and is therefore never mistaken for one.
enum UnknownWordScanner {
    /// The unknown words, in order, each reported once.
    static func unknownWords(marked: String, clean: String) -> [UnknownWord] {
        let found = aligned(marked: Array(marked), clean: Array(clean)) ?? scanned(marked)
        var seen = Set<UnknownWord>()
        return found.filter { !$0.word.isEmpty && seen.insert($0).inserted }
    }

    /// Walks both texts; nil when the marked text is not the clean one plus marks.
    private static func aligned(marked: [Character], clean: [Character]) -> [UnknownWord]? {
        var words: [UnknownWord] = []
        var markedIndex = 0, cleanIndex = 0
        while markedIndex < marked.count {
            if cleanIndex < clean.count, marked[markedIndex] == clean[cleanIndex] {
                markedIndex += 1
                cleanIndex += 1
            } else if let kind = UnknownWord.Kind(rawValue: String(marked[markedIndex])) {
                words.append(UnknownWord(word: word(in: clean, from: cleanIndex), kind: kind))
                markedIndex += 1
            } else {
                return nil
            }
        }
        return cleanIndex == clean.count ? words : nil
    }

    /// The fallback: every whitespace-separated token whose first letter follows a mark.
    private static func scanned(_ marked: String) -> [UnknownWord] {
        marked.split(whereSeparator: \.isWhitespace).compactMap { token in
            let body = token.drop { !$0.isLetter && UnknownWord.Kind(rawValue: String($0)) == nil }
            guard let first = body.first, let kind = UnknownWord.Kind(rawValue: String(first)),
                  body.dropFirst().first?.isLetter == true else { return nil }
            return UnknownWord(word: trimmed(body.dropFirst()), kind: kind)
        }
    }

    /// The word of `text` that starts at `index`, up to the next blank, without edge punctuation.
    private static func word(in text: [Character], from index: Int) -> String {
        let end = text[index...].firstIndex(where: \.isWhitespace) ?? text.count
        return trimmed(text[index..<end])
    }

    private static func trimmed(_ characters: some Collection<Character>) -> String {
        String(characters).trimmingCharacters(in: CharacterSet.punctuationCharacters.union(.symbols))
    }
}
