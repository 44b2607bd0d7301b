import Foundation

/// A line-based data file as lines: entries, plus comments, blank lines and
/// malformed lines kept verbatim, so that an edit keeps the file's comments,
/// order and bad lines. The dictionaries and the glossaries are such files;
/// each says how a line reads as its entry and how an entry is written.
///
/// LF or CRLF and a byte order mark are read and kept on save; a line over
/// `maximumLineBytes` is reported and kept as it is.
public struct LineDocument<Entry: Sendable & Equatable>: Sendable, Equatable {
    /// One line of the file.
    public enum Line: Sendable, Equatable {
        case verbatim(String)
        case entry(Entry)
    }

    /// Why a line is not an entry: its `message` is reported with the line's number.
    public struct Problem: Error {
        public var message: String
        public init(_ message: String) { self.message = message }
    }

    /// The longest line read as an entry: the limit of every line-based file (`DataFile.maximumLineBytes`).
    public static var maximumLineBytes: Int { DataFile.maximumLineBytes }

    /// The file the document was read from, for messages.
    public let path: String
    /// The lines, as read or edited.
    public var lines: [Line]
    /// The file's line ending, `\n` or `\r\n`, kept on save.
    public private(set) var lineEnding = "\n"
    /// Whether the file starts with a byte order mark, kept on save.
    public private(set) var hasByteOrderMark = false
    /// Lines that could not be read, named by line number; they stay in the file as they are.
    public private(set) var problems: [DataFileError] = []

    /// An empty document whose file will start with `header` comment lines.
    public init(path: String, header: [String]) {
        self.path = path
        lines = header.map { .verbatim("# \($0)") }
    }

    /// Parses a file's text. `parse` reads one line (nil for a comment or a blank line,
    /// `Problem` for a malformed one); a line whose entry has the `identity` of an earlier
    /// one is reported with `duplicate(entry, first line number)` and kept verbatim.
    /// `kind` names the file in the long-line message ("a dictionary line holds …").
    public init(parsing text: String, path: String, kind: String,
                identity: (Entry) -> String, duplicate: (Entry, Int) -> String,
                parse: (String) throws(Problem) -> Entry?) {
        self.path = path
        lines = []
        lineEnding = DataFile.lineEnding(of: text)
        hasByteOrderMark = DataFile.hasByteOrderMark(text)
        var firstLine: [String: Int] = [:]
        for (offset, raw) in DataFile.lines(of: text).map(String.init).enumerated() {
            let number = offset + 1
            let parsed: Entry?
            do throws(Problem) {
                guard raw.utf8.count <= Self.maximumLineBytes else {
                    throw Problem("the line is \(raw.utf8.count) bytes long; a \(kind) line holds at most \(Self.maximumLineBytes) bytes")
                }
                parsed = try parse(raw)
            } catch {
                report(number, error.message)
                parsed = nil
            }
            guard let entry = parsed else {
                lines.append(.verbatim(raw))
                continue
            }
            if let first = firstLine[identity(entry)] {
                report(number, duplicate(entry, first))
                lines.append(.verbatim(raw))
            } else {
                firstLine[identity(entry)] = number
                lines.append(.entry(entry))
            }
        }
    }

    /// The entries, in file order.
    public var entries: [Entry] {
        lines.compactMap { if case let .entry(entry) = $0 { return entry } else { return nil } }
    }

    /// Sets entries, each replacing the first entry of the same `identity` where it stands,
    /// or appended in order.
    public mutating func set(_ entries: [Entry], identity: (Entry) -> String) {
        var lineByIdentity: [String: Int] = [:]
        for (index, line) in lines.enumerated() {
            if case let .entry(old) = line, lineByIdentity[identity(old)] == nil { lineByIdentity[identity(old)] = index }
        }
        for entry in entries {
            if let index = lineByIdentity[identity(entry)] {
                lines[index] = .entry(entry)
            } else {
                lineByIdentity[identity(entry)] = lines.count
                lines.append(.entry(entry))
            }
        }
    }

    /// The file's text: every line as read or edited (entries written by `format`), each
    /// ending in the file's line ending, after its byte order mark if it had one.
    public func serialized(_ format: (Entry) -> String) -> String {
        (hasByteOrderMark ? "\u{FEFF}" : "") + lines.map { line -> String in
            switch line {
            case let .verbatim(text): return text + lineEnding
            case let .entry(entry): return format(entry) + lineEnding
            }
        }.joined()
    }

    private mutating func report(_ line: Int, _ message: String) {
        problems.append(DataFileError(path: path, line: line, message: message))
    }
}
