import Foundation
import Locales

/// The words of one language, from a word list installed on the machine: the
/// CMU pronouncing dictionary that comes with PocketSphinx's en-US model
/// (`cmuDictionaryPath`), or a Debian word list (`/usr/share/dict/american-english`, …).
///
/// Whisper's fast path (a short encoder window) now and then writes a word
/// that is no word at all ("ill-sposed" for "ill-disposed", "immiable" for
/// "amiable"); such a final result is decoded again in the full window (see
/// `WhisperRecognizer.Tuning.secondOpinion`). The lexicon is what tells.
public struct WordLexicon: Sendable {
    private let words: Set<String>
    /// The file it was read from.
    public let path: String

    /// The words of `text`: the first field of each line (`word PHONES`, or a bare word), lower
    /// case, a CMU variant's `(2)` dropped.
    public init(parsing text: String, path: String) {
        var words = Set<String>()
        words.reserveCapacity(text.utf8.count / 24)
        // Read byte by byte: the CMU dictionary has 134,000 lines, and arrays of lines and
        // fields would cost more memory than the words themselves.
        var bytes = text.utf8[...]
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes = bytes.dropFirst(3) }
        while !bytes.isEmpty {
            let lineEnd = bytes.firstIndex(of: UInt8(ascii: "\n")) ?? bytes.endIndex
            let line = bytes[..<lineEnd]
            bytes = lineEnd == bytes.endIndex ? bytes[lineEnd...] : bytes[bytes.index(after: lineEnd)...]
            let fieldEnd = line.firstIndex { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") || $0 == UInt8(ascii: "\r") }
            let field = line[..<(fieldEnd ?? line.endIndex)]
            // A line of no word (a comment, something far longer than any word) is skipped.
            guard !field.isEmpty, field.first != UInt8(ascii: "#"), field.count <= Self.longestWordBytes,
                  var word = String(field)?.lowercased() else { continue }
            if word.hasSuffix(")"), let open = word.lastIndex(of: "(") { word = String(word[..<open]) }
            if !word.isEmpty { words.insert(word) }
        }
        self.words = words
        self.path = path
    }

    /// Reads the word list at `path` (UTF-8 text).
    public static func load(path: String) throws -> WordLexicon {
        WordLexicon(parsing: try DataFile.read(path), path: path)
    }

    /// The words of `text` as `unknownWords(in:)` splits them, lower case (the words of phrases).
    public static func words(in text: String) -> [String] {
        WordLexicon(parsing: "", path: "").unknownWords(in: text)
    }

    /// Bytes of the longest word kept.
    static let longestWordBytes = 64

    /// How many words it holds.
    public var count: Int { words.count }

    /// The words of `text` this lexicon does not hold, in order. Text is split at spaces and
    /// hyphens, punctuation around a word is ignored, and tokens with digits (10, 4692) are
    /// never unknown: Whisper writes numbers as digits.
    public func unknownWords(in text: String) -> [String] {
        let separators = CharacterSet.whitespacesAndNewlines.union(CharacterSet(charactersIn: "-–—/"))
        let edges = CharacterSet.punctuationCharacters.union(.symbols).subtracting(CharacterSet(charactersIn: "'"))
        return text.lowercased().components(separatedBy: separators).compactMap { token in
            let word = token.trimmingCharacters(in: edges)
            guard !word.isEmpty, !word.contains(where: \.isNumber), !word.allSatisfy({ $0 == "'" }) else { return nil }
            // An abbreviation is listed with its full stop ("mr."), so the token is looked up with it too.
            let abbreviation = token.trimmingCharacters(in: edges.subtracting(CharacterSet(charactersIn: ".")))
            if words.contains(word) || words.contains(abbreviation)
                || words.contains(word.trimmingCharacters(in: CharacterSet(charactersIn: "'"))) {
                return nil
            }
            // A possessive the list does not spell out: "Dashwood's".
            if word.hasSuffix("'s"), words.contains(String(word.dropLast(2))) { return nil }
            return word
        }
    }

    /// The CMU pronouncing dictionary that Debian's `pocketsphinx-en-us` installs beside its
    /// model. Only the file is shared with PocketSphinx: it is read here as a plain word list,
    /// and this module has no code dependency on PocketSphinxRecognition.
    public static let cmuDictionaryPath = "/usr/share/pocketsphinx/model/en-us/cmudict-en-us.dict"

    /// Where the word list of each language is looked for, first found wins: the CMU
    /// dictionary of `pocketsphinx-en-us`, then Debian's English word lists. A language with
    /// no entry has no list, so its final results get no word-list second opinion; English
    /// only, for the reason in docs/recognition.md (`wspanish` would give a Spanish list).
    public static let candidatePaths: [String: [String]] = [
        "en": [cmuDictionaryPath, "/usr/share/dict/american-english", "/usr/share/dict/british-english"],
    ]

    /// The installed word list for a Whisper language code, or nil when none is installed.
    public static func installed(language: String,
                                 candidates: [String: [String]] = candidatePaths) -> WordLexicon? {
        for path in candidates[language] ?? [] where FileManager.default.isReadableFile(atPath: path) {
            if let lexicon = try? load(path: path), lexicon.count > 0 { return lexicon }
        }
        return nil
    }
}
