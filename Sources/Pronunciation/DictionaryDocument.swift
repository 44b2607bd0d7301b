public import Locales
import Foundation

/// One word or phrase and how to say it, in IPA.
public struct DictionaryEntry: Sendable, Equatable {
    /// The word or phrase as written in the file.
    public var word: String
    /// Its pronunciation in IPA, or `-` for "espeak's own" (hides a shipped entry).
    public var ipa: String

    /// Written instead of IPA to hide a shipped entry.
    public static let espeakOwn = "-"

    /// Creates an entry.
    public init(word: String, ipa: String) {
        self.word = word
        self.ipa = ipa
    }

    /// The lookup key: lowercased, runs of spaces made one.
    public var key: String { Self.key(for: word) }

    /// Whether the entry hides a shipped one instead of giving a pronunciation.
    public var hidesShipped: Bool { ipa == Self.espeakOwn }

    /// The lookup key of `word`.
    public static func key(for word: String) -> String {
        word.lowercased().split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }
}

/// A dictionary file as lines: entries, plus comments and anything else kept
/// verbatim, so that an edit keeps the file's comments and order.
///
/// Format: UTF-8, one `word<TAB>IPA` per line, `#` starts a comment line;
/// words are case-insensitive and may be phrases (`New York	nuː jˈɔːɹk`).
public struct DictionaryDocument: Sendable, Equatable {
    typealias Line = LineDocument<DictionaryEntry>.Line

    private var document: LineDocument<DictionaryEntry>

    /// The file the document was read from, for messages.
    public var path: String { document.path }
    var lines: [Line] { document.lines }
    /// The file's line ending, `\n` or `\r\n`, kept on save.
    public var lineEnding: String { document.lineEnding }
    /// Whether the file starts with a byte order mark, kept on save.
    public var hasByteOrderMark: Bool { document.hasByteOrderMark }
    /// Lines that could not be read; they are kept in the file as they are.
    public var problems: [DataFileError] { document.problems }

    /// An empty document whose file will start with `header` comment lines.
    public init(path: String, header: [String]) {
        document = LineDocument(path: path, header: header)
    }

    /// Parses a dictionary file's text (LF or CRLF, with or without a BOM);
    /// malformed lines become `problems`.
    public init(parsing text: String, path: String) {
        document = LineDocument(
            parsing: text, path: path, kind: "dictionary", identity: \.key,
            duplicate: { entry, first in "'\(entry.word)' is already defined on line \(first); this line is ignored" },
            parse: Self.parseEntry)
    }

    /// The entries, in file order.
    public var entries: [DictionaryEntry] { document.entries }

    /// The entry for `word`, case-insensitively.
    public func entry(for word: String) -> DictionaryEntry? {
        let key = DictionaryEntry.key(for: word)
        return entries.first { $0.key == key }
    }

    /// Replaces the entry with the same key where it stands, or appends it.
    public mutating func set(_ entry: DictionaryEntry) {
        set([entry])
    }

    /// Sets many entries at once, each replacing its word where it stands or appended in order.
    public mutating func set(_ entries: [DictionaryEntry]) {
        document.set(entries, identity: \.key)
    }

    /// Removes the entry for `word`; false if there was none.
    @discardableResult
    public mutating func remove(_ word: String) -> Bool {
        let key = DictionaryEntry.key(for: word)
        let before = document.lines.count
        document.lines.removeAll { if case let .entry(old) = $0 { return old.key == key } else { return false } }
        return document.lines.count != before
    }

    /// The file's text: every line as read or edited, each ending in the file's
    /// line ending, after its byte order mark if it had one.
    public func serialized() -> String {
        document.serialized { "\($0.word)\t\($0.ipa)" }
    }

    /// The longest line read as an entry; longer ones are reported and kept as they are.
    public static let maximumLineBytes = LineDocument<DictionaryEntry>.maximumLineBytes

    /// An entry, or nil for a comment or a blank line.
    private static func parseEntry(_ raw: String) throws(LineDocument<DictionaryEntry>.Problem) -> DictionaryEntry? {
        // Only spaces are trimmed: a trailing tab still separates an empty pronunciation.
        let text = raw.trimmingCharacters(in: CharacterSet(charactersIn: " \r"))
        guard !text.isEmpty, !text.hasPrefix("#") else { return nil }
        let fields = text.split(separator: "\t", omittingEmptySubsequences: false)
            .map { $0.trimmingCharacters(in: .whitespaces) }
        guard fields.count == 2 else {
            throw .init(fields.count < 2 ? "expected a word, a tab and its IPA pronunciation, found no tab"
                                         : "expected a word, a tab and its IPA pronunciation, found \(fields.count - 1) tabs")
        }
        guard !fields[0].isEmpty else { throw .init(PronunciationError.emptyWord.description) }
        guard !fields[1].isEmpty else { throw .init(PronunciationError.emptyPronunciation(word: fields[0]).description) }
        return DictionaryEntry(word: fields[0], ipa: fields[1])
    }
}
