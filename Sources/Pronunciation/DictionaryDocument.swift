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
    enum Line: Sendable, Equatable {
        case verbatim(String)
        case entry(DictionaryEntry)
    }

    /// The file the document was read from, for messages.
    public let path: String
    private(set) var lines: [Line]
    /// The file's line ending, `\n` or `\r\n`, kept on save.
    public private(set) var lineEnding = "\n"
    /// Whether the file starts with a byte order mark, kept on save.
    public private(set) var hasByteOrderMark = false
    /// Lines that could not be read; they are kept in the file as they are.
    public private(set) var problems: [DataFileError] = []

    /// An empty document whose file will start with `header` comment lines.
    public init(path: String, header: [String]) {
        self.path = path
        lines = header.map { .verbatim("# \($0)") }
    }

    /// Parses a dictionary file's text (LF or CRLF, with or without a BOM);
    /// malformed lines become `problems`.
    public init(parsing text: String, path: String) {
        self.path = path
        lines = []
        lineEnding = DataFile.lineEnding(of: text)
        hasByteOrderMark = DataFile.hasByteOrderMark(text)
        var firstLine: [String: Int] = [:]
        for (offset, raw) in DataFile.lines(of: text).map(String.init).enumerated() {
            let number = offset + 1
            guard let entry = parseEntry(raw, line: number) else {
                lines.append(.verbatim(raw))
                continue
            }
            if let first = firstLine[entry.key] {
                report(number, "'\(entry.word)' is already defined on line \(first); this line is ignored")
                lines.append(.verbatim(raw))
            } else {
                firstLine[entry.key] = number
                lines.append(.entry(entry))
            }
        }
    }

    /// The entries, in file order.
    public var entries: [DictionaryEntry] {
        lines.compactMap { if case let .entry(entry) = $0 { return entry } else { return nil } }
    }

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
        var lineByKey: [String: Int] = [:]
        for (index, line) in lines.enumerated() {
            if case let .entry(old) = line, lineByKey[old.key] == nil { lineByKey[old.key] = index }
        }
        for entry in entries {
            let key = entry.key
            if let index = lineByKey[key] {
                lines[index] = .entry(entry)
            } else {
                lineByKey[key] = lines.count
                lines.append(.entry(entry))
            }
        }
    }

    /// Removes the entry for `word`; false if there was none.
    @discardableResult
    public mutating func remove(_ word: String) -> Bool {
        let key = DictionaryEntry.key(for: word)
        let before = lines.count
        lines.removeAll { if case let .entry(old) = $0 { return old.key == key } else { return false } }
        return lines.count != before
    }

    /// The file's text: every line as read or edited, each ending in the file's
    /// line ending, after its byte order mark if it had one.
    public func serialized() -> String {
        (hasByteOrderMark ? "\u{FEFF}" : "") + lines.map { line -> String in
            switch line {
            case let .verbatim(text): return text + lineEnding
            case let .entry(entry): return "\(entry.word)\t\(entry.ipa)" + lineEnding
            }
        }.joined()
    }

    /// The longest line read as an entry; longer ones are reported and kept as they are.
    public static let maximumLineBytes = 4_096

    /// An entry, or nil for a comment, a blank line or a malformed line (reported).
    private mutating func parseEntry(_ raw: String, line: Int) -> DictionaryEntry? {
        guard raw.utf8.count <= Self.maximumLineBytes else {
            report(line, "the line is \(raw.utf8.count) bytes long; a dictionary line holds at most \(Self.maximumLineBytes) bytes")
            return nil
        }
        // Only spaces are trimmed: a trailing tab still separates an empty pronunciation.
        let text = raw.trimmingCharacters(in: CharacterSet(charactersIn: " \r"))
        guard !text.isEmpty, !text.hasPrefix("#") else { return nil }
        let fields = text.split(separator: "\t", omittingEmptySubsequences: false)
            .map { $0.trimmingCharacters(in: .whitespaces) }
        guard fields.count == 2 else {
            report(line, fields.count < 2 ? "expected a word, a tab and its IPA pronunciation, found no tab"
                                          : "expected a word, a tab and its IPA pronunciation, found \(fields.count - 1) tabs")
            return nil
        }
        guard !fields[0].isEmpty else {
            report(line, PronunciationError.emptyWord.description)
            return nil
        }
        guard !fields[1].isEmpty else {
            report(line, PronunciationError.emptyPronunciation(word: fields[0]).description)
            return nil
        }
        return DictionaryEntry(word: fields[0], ipa: fields[1])
    }

    private mutating func report(_ line: Int, _ message: String) {
        problems.append(DataFileError(path: path, line: line, message: message))
    }
}
