import Foundation
import Locales

/// Glossaries as CSV (RFC 4180): `source,target,kind` with a header row,
/// fields quoted when they hold a comma, a quote or a space at an edge.
/// Importing takes two columns (terms) or three (the kind, `term` or `phrase`),
/// with or without the header.
public enum GlossaryCSV {
    /// The header row written on export and skipped on import.
    static let header = ["source", "target", "kind"]

    /// The entries as a CSV text with a header row, LF line endings.
    public static func export(_ entries: [GlossaryEntry]) -> String {
        ([header] + entries.map { [$0.source, $0.target, $0.kind.rawValue] })
            .map { $0.map(quoted).joined(separator: ",") + "\n" }.joined()
    }

    /// The entries of a CSV text; a malformed row is an error naming its line, and nothing is returned.
    public static func entries(parsing text: String, path: String) throws -> [GlossaryEntry] {
        var entries: [GlossaryEntry] = []
        for (number, fields) in try rows(of: text, path: path) {
            let lowered = fields.map { $0.lowercased().trimmingCharacters(in: .whitespaces) }
            if entries.isEmpty, lowered == header || lowered == Array(header.prefix(2)) { continue }
            guard fields.count == 2 || fields.count == 3 else {
                throw GlossaryError.importFailure(path: path, line: number,
                                                  reason: "expected source,target or source,target,kind; found \(fields.count) fields")
            }
            let kindName = fields.count == 3 ? lowered[2] : "term"
            guard let kind = GlossaryEntry.Kind(rawValue: kindName) else {
                throw GlossaryError.importFailure(path: path, line: number, reason: "'\(fields[2])' is not a kind of entry; use term or phrase")
            }
            do {
                entries.append(try GlossaryEntry.checked(kind: kind, source: fields[0], target: fields[1]))
            } catch {
                throw GlossaryError.importFailure(path: path, line: number, reason: String(describing: error))
            }
        }
        return entries
    }

    /// The non-blank rows with the line each starts on.
    static func rows(of text: String, path: String) throws -> [(Int, [String])] {
        var rows: [(Int, [String])] = []
        for (offset, line) in DataFile.lines(of: text).map(String.init).enumerated() where !line.trimmingCharacters(in: .whitespaces).isEmpty {
            rows.append((offset + 1, try fields(of: line, path: path, line: offset + 1)))
        }
        return rows
    }

    /// The fields of one line; a quote left open is an error (entries are one line each).
    static func fields(of line: String, path: String, line number: Int) throws -> [String] {
        var fields: [String] = [], field = "", quoted = false, wasQuoted = false
        var characters = line.makeIterator()
        while let character = characters.next() {
            switch (character, quoted) {
            case ("\"", false) where field.isEmpty && !wasQuoted: quoted = true; wasQuoted = true
            case ("\"", true):
                var lookahead = characters
                if lookahead.next() == "\"" { field.append("\""); characters = lookahead } else { quoted = false }
            case (",", false): fields.append(field); field = ""; wasQuoted = false
            case ("\"", false):
                throw GlossaryError.importFailure(path: path, line: number, reason: "a quote inside an unquoted field; quote the field and double the quote")
            default: field.append(character)
            }
        }
        guard !quoted else { throw GlossaryError.importFailure(path: path, line: number, reason: "a quoted field is not closed on its line") }
        return fields + [field]
    }

    private static func quoted(_ field: String) -> String {
        guard field.contains(where: { ",\"".contains($0) }) || field.first == " " || field.last == " " else { return field }
        return "\"" + field.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}
