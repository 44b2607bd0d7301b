import Foundation

/// A malformed line in one of Parley's data files, with where it is.
public struct DataFileError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The file's path.
    public var path: String
    /// 1-based line number; 0 when the file as a whole is at fault.
    public var line: Int
    /// What is wrong.
    public var message: String

    /// Creates an error for `path:line`.
    public init(path: String, line: Int, message: String) {
        self.path = path
        self.line = line
        self.message = message
    }

    public var description: String {
        line > 0 ? "\(path):\(line): \(message)" : "\(path): \(message)"
    }
}

/// One non-comment line of a tab-separated data file.
public struct DataFileRow: Sendable, Equatable {
    /// 1-based line number in the file.
    public var line: Int
    /// The tab-separated fields, trimmed.
    public var fields: [String]
}

/// Reads Parley's tab-separated data files: `#` starts a comment line, blank
/// lines are ignored, fields are separated by tabs.
public enum DataFile {
    /// The rows of `text`, keeping line numbers for error messages.
    public static func rows(of text: String) -> [DataFileRow] {
        var rows: [DataFileRow] = []
        for (index, rawLine) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            // Only spaces and a CR are trimmed: a trailing tab is an empty last field.
            let line = rawLine.trimmingCharacters(in: CharacterSet(charactersIn: " \r"))
            guard !line.trimmingCharacters(in: .whitespaces).isEmpty, !line.hasPrefix("#") else { continue }
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false)
                .map { $0.trimmingCharacters(in: .whitespaces) }
            rows.append(DataFileRow(line: index + 1, fields: fields))
        }
        return rows
    }

    /// Reads the file at `path`; a missing or unreadable file is an error naming it.
    public static func read(_ path: String) throws -> String {
        do {
            return try String(contentsOfFile: path, encoding: .utf8)
        } catch {
            throw DataFileError(path: path, line: 0, message: "cannot be read as UTF-8 text")
        }
    }
}
