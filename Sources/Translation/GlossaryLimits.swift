import Foundation
import Locales

/// The sizes a glossary and the files imported into it may have, checked with
/// `stat` before a byte is read, so that a huge or binary file is refused at once
/// instead of after seconds of reading and parsing.
public enum GlossaryLimits {
    /// The largest glossary file read (1 MiB, about 25,000 entries of everyday
    /// length). Every `parley translate` and dialogue reads its pair's whole file
    /// before the first sentence, at a cost that grows with its entries, so a larger
    /// one would delay every start; it is refused with a message, and saves never
    /// make a glossary grow past it.
    public static let maximumGlossaryBytes = 1_024 * 1_024

    /// `maximumGlossaryBytes` as entries, for messages.
    static let glossaryCapacity = "about 25,000 entries"

    /// The largest CSV or TBX file imported (8 MiB: a full glossary as TBX, which
    /// spends about four times a glossary line's bytes on an entry, with room to
    /// spare). It stays below the 10,000,000 bytes the XML parser refuses without saying why.
    public static let maximumImportBytes = 8 * 1_024 * 1_024

    /// The bytes of the regular file at `path` if it holds at most `limit` bytes
    /// (nil: any size), and, when `binaryRefused`, no NUL byte; otherwise an error naming its
    /// size and the limit (checked before reading), or the offset of the first NUL (binary data).
    static func contents(of path: String, limit: Int?, what: String, binaryRefused: Bool) throws -> Data {
        let size = try DataFile.regularFileSize(path)
        if let limit, size > Int64(limit) {
            throw DataFileError(path: path, line: 0, message: "is \(describe(Int(size))), over the limit of \(describe(limit)) for \(what)")
        }
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw DataFileError(path: path, line: 0, message: "cannot be read")
        }
        defer { try? handle.close() }
        let data: Data
        do {
            data = try (limit.map { try handle.read(upToCount: $0 + 1) } ?? handle.readToEnd()) ?? Data()
        } catch {
            throw DataFileError(path: path, line: 0, message: "cannot be read: \(error.localizedDescription)")
        }
        if let limit, data.count > limit {
            throw DataFileError(path: path, line: 0, message: "grew past the limit of \(describe(limit)) for \(what) while it was read")
        }
        if binaryRefused, let nul = data.firstIndex(of: 0) {
            throw DataFileError(path: path, line: 0, message: "holds a NUL byte at byte \(nul - data.startIndex + 1), so it is binary data, not text")
        }
        return data
    }

    /// The UTF-8 text of `path`, within `limit` (see `contents(of:limit:what:binaryRefused:)`).
    static func text(of path: String, limit: Int?, what: String, binaryRefused: Bool = false) throws -> String {
        let data = try contents(of: path, limit: limit, what: what, binaryRefused: binaryRefused)
        guard let text = String(validating: data, as: UTF8.self) else {
            throw DataFileError(path: path, line: 0, message: "is not UTF-8 text")
        }
        return text
    }

    /// `bytes` as a person reads it: "3,145,728 bytes (3.1 MB)".
    static func describe(_ bytes: Int) -> String {
        var digits = String(bytes), grouped = ""
        while digits.count > 3 { grouped = "," + digits.suffix(3) + grouped; digits.removeLast(3) }
        grouped = digits + grouped
        return bytes < 1_000_000 ? "\(grouped) bytes" : "\(grouped) bytes (\(String(format: "%.1f", Double(bytes) / 1_000_000)) MB)"
    }

    /// The text of a CSV or TBX file to import: at most `maximumImportBytes`, checked before
    /// reading, and no NUL byte (binary data is refused at once, naming where it starts).
    public static func importText(of path: String) throws -> String {
        try text(of: path, limit: maximumImportBytes, what: "a file to import", binaryRefused: true)
    }
}
