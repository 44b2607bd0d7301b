public import Locales
import Foundation

/// A glossary file as lines: entries, plus comments and anything else kept
/// verbatim, so that an edit keeps the file's comments, order and bad lines.
///
/// Format: UTF-8, one `kind<TAB>source<TAB>target` per line (`term` or
/// `phrase`), `#` starts a comment line. LF or CRLF and a byte order mark are
/// read and kept on save.
public struct GlossaryDocument: Sendable, Equatable {
    typealias Line = LineDocument<GlossaryEntry>.Line

    /// The longest line read as an entry; longer ones are reported and kept as they are.
    public static let maximumLineBytes = LineDocument<GlossaryEntry>.maximumLineBytes

    private var document: LineDocument<GlossaryEntry>

    /// The file the document was read from, for messages.
    public var path: String { document.path }
    var lines: [Line] { document.lines }
    /// The file's line ending, `\n` or `\r\n`, kept on save.
    public var lineEnding: String { document.lineEnding }
    /// Whether the file starts with a byte order mark, kept on save.
    public var hasByteOrderMark: Bool { document.hasByteOrderMark }
    /// Lines that could not be read, named by line number; they stay in the file as they are.
    public var problems: [DataFileError] { document.problems }

    /// An empty document whose file will start with `header` comment lines.
    public init(path: String, header: [String]) {
        document = LineDocument(path: path, header: header)
    }

    /// Parses a glossary file's text; malformed lines become `problems`.
    public init(parsing text: String, path: String) {
        document = LineDocument(
            parsing: text, path: path, kind: "glossary", identity: Self.identity,
            duplicate: { entry, first in "the \(entry.kind.rawValue) '\(entry.source)' is already defined on line \(first); this line is ignored" },
            parse: Self.parseEntry)
    }

    /// The entries, in file order.
    public var entries: [GlossaryEntry] { document.entries }

    /// Sets entries, each replacing the entry of the same kind and key where it stands, or appended in order.
    public mutating func set(_ entries: [GlossaryEntry]) {
        document.set(entries, identity: Self.identity)
    }

    /// Removes the entry of `kind` for `source`; the removed entry, or nil if there was none.
    public mutating func remove(_ source: String, kind: GlossaryEntry.Kind) -> GlossaryEntry? {
        let key = GlossaryEntry.key(for: source, kind: kind)
        guard let index = document.lines.firstIndex(where: {
            if case let .entry(old) = $0 { return old.kind == kind && old.key == key } else { return false }
        }), case let .entry(removed) = document.lines[index] else { return nil }
        document.lines.remove(at: index)
        return removed
    }

    /// The file's text: every line as read or edited, in the file's line ending, after its byte order mark if it had one.
    public func serialized() -> String {
        document.serialized(\.line)
    }

    /// `entries` without the later entries of a kind and key already given (the first is
    /// kept, as when the file is read), and how many were dropped.
    public static func withoutDuplicates(_ entries: [GlossaryEntry]) -> (entries: [GlossaryEntry], duplicates: Int) {
        var seen = Set<String>()
        let kept = entries.filter { seen.insert(identity($0)).inserted }
        return (kept, entries.count - kept.count)
    }

    /// Entries of the same kind and key are the same entry.
    private static func identity(_ entry: GlossaryEntry) -> String { "\(entry.kind.rawValue)\t\(entry.key)" }

    /// An entry, or nil for a comment or a blank line.
    private static func parseEntry(_ raw: String) throws(LineDocument<GlossaryEntry>.Problem) -> GlossaryEntry? {
        let text = raw.trimmingCharacters(in: CharacterSet(charactersIn: " \r"))
        guard !text.isEmpty, !text.hasPrefix("#") else { return nil }
        let fields = text.split(separator: "\t", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
        guard fields.count == 3 else {
            throw .init("expected 'term' or 'phrase', a tab, the source text, a tab and its translation; found \(fields.count) fields")
        }
        guard let kind = GlossaryEntry.Kind(rawValue: fields[0].lowercased()) else {
            throw .init("'\(fields[0])' is not a kind of entry; use term or phrase")
        }
        do {
            return try GlossaryEntry.checked(kind: kind, source: fields[1], target: fields[2])
        } catch {
            throw .init(String(describing: error))
        }
    }
}

extension GlossaryEntry {
    /// An entry with its texts' spaces made single, or the error for an empty
    /// text, a control character (which would forge another line), a term that
    /// cannot be found in a sentence, or an entry whose saved line would be longer
    /// than `GlossaryDocument.maximumLineBytes` (and so ignored on every read).
    public static func checked(kind: Kind, source: String, target: String) throws -> GlossaryEntry {
        for (field, text) in [("source text", source), ("translation", target)] {
            if let position = firstControlCharacter(text) { throw GlossaryError.controlCharacter(field: field, position: position) }
        }
        let source = source.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        let target = target.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        guard !source.isEmpty else { throw GlossaryError.emptySource }
        guard !source.hasPrefix("#") else { throw GlossaryError.startsWithHash(source) }
        guard !target.isEmpty else { throw GlossaryError.emptyTarget(source: source) }
        if kind == .term, !(source.first.map(GlossaryMatcher.isWordCharacter) ?? false) {
            throw GlossaryError.termStartsWithoutWord(source)
        }
        let entry = GlossaryEntry(kind: kind, source: source, target: target)
        guard entry.line.utf8.count <= GlossaryDocument.maximumLineBytes else {
            throw GlossaryError.tooLong(bytes: entry.line.utf8.count)
        }
        return entry
    }

    /// The entry as its line of the glossary file, without the line ending.
    var line: String { "\(kind.rawValue)\t\(source)\t\(target)" }

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
