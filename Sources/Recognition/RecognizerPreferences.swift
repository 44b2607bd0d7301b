import Foundation
public import Locales

/// Which recognizer serves a language, best first, from `recognizers.tsv`
/// (`*` for every language without a row).
public struct RecognizerPreferences: Sendable, Equatable {
    /// language → recognizers, best first.
    public var rows: [String: [RecognizerKind]]

    /// Whisper first, then PocketSphinx, for every language.
    public static let standard = RecognizerPreferences(rows: ["*": [.whisper, .pocketsphinx]])

    /// Creates preferences from known rows.
    public init(rows: [String: [RecognizerKind]]) {
        self.rows = rows
    }

    /// The order for `language`.
    public func order(for language: String) -> [RecognizerKind] {
        rows[language.lowercased()] ?? rows["*"] ?? RecognizerKind.allCases
    }

    /// Reads the files in `directories` in order, later rows replacing earlier ones for the
    /// same language; a missing or unreadable file is skipped. A bad row throws a
    /// `DataFileError` naming the file and line, what is wrong and what to write.
    public static func load(from directories: [String]) throws(DataFileError) -> RecognizerPreferences {
        var rows: [String: [RecognizerKind]] = [:]
        for directory in directories {
            let path = "\(directory)/recognizers.tsv"
            guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { continue }
            for (index, line) in DataFile.lines(of: text).enumerated() {
                let trimmed = line.trimmingCharacters(in: .whitespacesAndNewlines)
                guard !trimmed.isEmpty, !trimmed.hasPrefix("#") else { continue }
                let (language, kinds) = try row(trimmed, path: path, line: index + 1)
                rows[language] = kinds
            }
        }
        return rows.isEmpty ? .standard : RecognizerPreferences(rows: rows)
    }

    /// How a row is written, for error messages.
    static let rowForm = "write a language (or * for every other), a tab and the recognizers best first, "
        + "separated by commas: es<TAB>whisper,pocketsphinx"

    /// The language and recognizers of one non-comment line of `path`.
    static func row(_ text: String, path: String, line: Int) throws(DataFileError) -> (String, [RecognizerKind]) {
        let fields = text.split(separator: "\t").map { $0.trimmingCharacters(in: .whitespaces) }
        guard fields.count == 2 else {
            let found = fields.count == 1 ? "no tab" : "\(fields.count) fields"
            throw DataFileError(path: path, line: line, message: "expected 2 tab-separated fields, found \(found); \(rowForm)")
        }
        let known = RecognizerKind.allCases.map(\.rawValue).joined(separator: ", ")
        var kinds: [RecognizerKind] = []
        for name in fields[1].split(separator: ",").map({ $0.trimmingCharacters(in: .whitespaces) }) {
            guard let kind = RecognizerKind(rawValue: name) else {
                throw DataFileError(path: path, line: line, message: "'\(name)' is not a recognizer (they are \(known)); \(rowForm)")
            }
            kinds.append(kind)
        }
        guard !kinds.isEmpty else {
            throw DataFileError(path: path, line: line, message: "the row names no recognizer (they are \(known)); \(rowForm)")
        }
        return (fields[0].lowercased(), kinds)
    }
}
