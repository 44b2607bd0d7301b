public import Locales
import Foundation

/// A glossary file as lines: entries, plus comments and anything else kept
/// verbatim, so that an edit keeps the file's comments, order and bad lines.
///
/// Format: UTF-8, one `kind<TAB>source<TAB>target` per line (`term` or
/// `phrase`), `#` starts a comment line. LF or CRLF and a byte order mark are
/// read and kept on save.
public struct GlossaryDocument: Sendable, Equatable {
    enum Line: Sendable, Equatable {
        case verbatim(String)
        case entry(GlossaryEntry)
    }

    /// The longest line read as an entry; longer ones are reported and kept as they are.
    public static let maximumLineBytes = 4_096

    /// The file the document was read from, for messages.
    public let path: String
    private(set) var lines: [Line]
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

    /// Parses a glossary file's text; malformed lines become `problems`.
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
            let identity = "\(entry.kind.rawValue)\t\(entry.key)"
            if let first = firstLine[identity] {
                report(number, "the \(entry.kind.rawValue) '\(entry.source)' is already defined on line \(first); this line is ignored")
                lines.append(.verbatim(raw))
            } else {
                firstLine[identity] = number
                lines.append(.entry(entry))
            }
        }
    }

    /// The entries, in file order.
    public var entries: [GlossaryEntry] {
        lines.compactMap { if case let .entry(entry) = $0 { return entry } else { return nil } }
    }

    /// Sets entries, each replacing the entry of the same kind and key where it stands, or appended in order.
    public mutating func set(_ entries: [GlossaryEntry]) {
        var lineByIdentity: [String: Int] = [:]
        for (index, line) in lines.enumerated() {
            if case let .entry(old) = line { lineByIdentity["\(old.kind.rawValue)\t\(old.key)"] = lineByIdentity["\(old.kind.rawValue)\t\(old.key)"] ?? index }
        }
        for entry in entries {
            let identity = "\(entry.kind.rawValue)\t\(entry.key)"
            if let index = lineByIdentity[identity] {
                lines[index] = .entry(entry)
            } else {
                lineByIdentity[identity] = lines.count
                lines.append(.entry(entry))
            }
        }
    }

    /// Removes the entry of `kind` for `source`; the removed entry, or nil if there was none.
    public mutating func remove(_ source: String, kind: GlossaryEntry.Kind) -> GlossaryEntry? {
        let key = GlossaryEntry.key(for: source, kind: kind)
        guard let index = lines.firstIndex(where: {
            if case let .entry(old) = $0 { return old.kind == kind && old.key == key } else { return false }
        }), case let .entry(removed) = lines[index] else { return nil }
        lines.remove(at: index)
        return removed
    }

    /// The file's text: every line as read or edited, in the file's line ending, after its byte order mark if it had one.
    public func serialized() -> String {
        (hasByteOrderMark ? "\u{FEFF}" : "") + lines.map { line -> String in
            switch line {
            case let .verbatim(text): return text + lineEnding
            case let .entry(entry): return "\(entry.kind.rawValue)\t\(entry.source)\t\(entry.target)" + lineEnding
            }
        }.joined()
    }

    /// An entry, or nil for a comment, a blank line or a malformed line (reported).
    private mutating func parseEntry(_ raw: String, line: Int) -> GlossaryEntry? {
        guard raw.utf8.count <= Self.maximumLineBytes else {
            report(line, "the line is \(raw.utf8.count) bytes long; a glossary line holds at most \(Self.maximumLineBytes) bytes")
            return nil
        }
        let text = raw.trimmingCharacters(in: CharacterSet(charactersIn: " \r"))
        guard !text.isEmpty, !text.hasPrefix("#") else { return nil }
        let fields = text.split(separator: "\t", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
        guard fields.count == 3 else {
            report(line, "expected 'term' or 'phrase', a tab, the source text, a tab and its translation; found \(fields.count) fields")
            return nil
        }
        guard let kind = GlossaryEntry.Kind(rawValue: fields[0].lowercased()) else {
            report(line, "'\(fields[0])' is not a kind of entry; use term or phrase")
            return nil
        }
        do {
            return try GlossaryEntry.checked(kind: kind, source: fields[1], target: fields[2])
        } catch {
            report(line, String(describing: error))
            return nil
        }
    }

    private mutating func report(_ line: Int, _ message: String) {
        problems.append(DataFileError(path: path, line: line, message: message))
    }
}

extension GlossaryEntry {
    /// An entry with its texts' spaces made single, or the error for an empty
    /// text, a control character (which would forge another line) or a term that
    /// cannot be found in a sentence.
    public static func checked(kind: Kind, source: String, target: String) throws -> GlossaryEntry {
        for (field, text) in [("source text", source), ("translation", target)] {
            if let position = firstControlCharacter(text) { throw GlossaryError.controlCharacter(field: field, position: position) }
            if text.utf8.count > GlossaryDocument.maximumLineBytes / 2 {
                throw GlossaryError.tooLong(field: field, bytes: text.utf8.count)
            }
        }
        let source = source.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        let target = target.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        guard !source.isEmpty else { throw GlossaryError.emptySource }
        guard !source.hasPrefix("#") else { throw GlossaryError.startsWithHash(source) }
        guard !target.isEmpty else { throw GlossaryError.emptyTarget(source: source) }
        if kind == .term, !(source.first.map(GlossaryMatcher.isWordCharacter) ?? false) {
            throw GlossaryError.termStartsWithoutWord(source)
        }
        return GlossaryEntry(kind: kind, source: source, target: target)
    }

    /// The 1-based position of the first control character (category Cc, or a line or paragraph separator).
    static func firstControlCharacter(_ text: String) -> Int? {
        for (offset, scalar) in text.unicodeScalars.enumerated() {
            switch scalar.properties.generalCategory {
            case .control, .lineSeparator, .paragraphSeparator: return offset + 1
            default: continue
            }
        }
        return nil
    }
}
