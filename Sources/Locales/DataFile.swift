import Foundation
#if canImport(Glibc)
import Glibc
#endif

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
    /// The longest line, in bytes of UTF-8 without its line ending, of any line-based file
    /// Parley reads: the shipped tables, the dictionaries and the glossaries. A longer line
    /// is nothing anyone wrote by hand, and reading it costs time on every start.
    public static let maximumLineBytes = 4_096

    /// The rows of the table at `path` whose text is `text`; a line longer than
    /// `maximumLineBytes` (a comment too) is an error naming the file and the line.
    public static func rows(of text: String, path: String) throws -> [DataFileRow] {
        for (index, line) in lines(of: text).enumerated() where line.utf8.count > maximumLineBytes {
            throw DataFileError(path: path, line: index + 1,
                                message: "the line is \(line.utf8.count) bytes long; a line holds at most \(maximumLineBytes) bytes")
        }
        return rows(of: text)
    }

    /// The rows of `text`, keeping line numbers for error messages.
    public static func rows(of text: String) -> [DataFileRow] {
        var rows: [DataFileRow] = []
        for (index, rawLine) in lines(of: text).enumerated() {
            // Only spaces and a CR are trimmed: a trailing tab is an empty last field.
            let line = rawLine.trimmingCharacters(in: CharacterSet(charactersIn: " \r"))
            guard !line.trimmingCharacters(in: .whitespaces).isEmpty, !line.hasPrefix("#") else { continue }
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false)
                .map { $0.trimmingCharacters(in: .whitespaces) }
            rows.append(DataFileRow(line: index + 1, fields: fields))
        }
        return rows
    }

    /// The lines of `text`, without a leading byte order mark, split at LF and at
    /// CRLF (which Swift counts as one `Character`, so splitting at "\n" alone misses it).
    /// A final line ending does not start an empty last line.
    public static func lines(of text: String) -> [Substring] {
        let body = hasByteOrderMark(text) ? text.dropFirst() : text[...]
        var lines = body.split(omittingEmptySubsequences: false) { $0 == "\n" || $0 == "\r\n" }
        if lines.last?.isEmpty == true { lines.removeLast() }
        return lines
    }

    /// Whether `text` starts with a UTF-8 byte order mark (U+FEFF).
    public static func hasByteOrderMark(_ text: String) -> Bool {
        text.unicodeScalars.first == "\u{FEFF}"
    }

    /// The line ending `text` uses: CRLF if its first line ends so, otherwise LF.
    public static func lineEnding(of text: String) -> String {
        text.first { $0 == "\n" || $0 == "\r\n" }.map(String.init) ?? "\n"
    }

    /// Reads the file at `path` as UTF-8 text; a missing file, a directory, a
    /// file that may not be read or that is not UTF-8 is an error naming it and saying which.
    public static func read(_ path: String) throws -> String {
        let data = try contents(of: path)
        guard let text = String(validating: data, as: UTF8.self) else {
            throw DataFileError(path: path, line: 0, message: "is not UTF-8 text")
        }
        return text
    }

    /// The bytes of the regular file at `path` (`open`, `fstat`, `read`); never blocks on a FIFO.
    static func contents(of path: String) throws -> Data {
        let descriptor = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard descriptor >= 0 else { throw DataFileError(path: path, line: 0, message: openFailure(errno)) }
        let handle = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { throw DataFileError(path: path, line: 0, message: openFailure(errno)) }
        guard info.st_mode & S_IFMT == S_IFREG else {
            throw DataFileError(path: path, line: 0, message: "is \(fileKind(info.st_mode)), not a regular file")
        }
        do {
            return try handle.readToEnd() ?? Data()
        } catch {
            throw DataFileError(path: path, line: 0, message: "cannot be read: \(String(cString: strerror(errno)))")
        }
    }

    /// The size of the regular file at `path`, checking it can be opened for reading;
    /// throws saying why not (missing, a directory, no permission).
    public static func regularFileSize(_ path: String) throws -> Int64 {
        let descriptor = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard descriptor >= 0 else { throw DataFileError(path: path, line: 0, message: openFailure(errno)) }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { throw DataFileError(path: path, line: 0, message: openFailure(errno)) }
        guard info.st_mode & S_IFMT == S_IFREG else {
            throw DataFileError(path: path, line: 0, message: "is \(fileKind(info.st_mode)), not a regular file")
        }
        return Int64(info.st_size)
    }

    /// What keeps the directory at `path` from being read, with `consequence` said after;
    /// nil when it can be read or does not exist (yet).
    public static func directoryProblem(_ path: String, consequence: String) -> DataFileError? {
        var info = stat()
        guard stat(path, &info) == 0 else {
            return errno == ENOENT ? nil : DataFileError(path: path, line: 0, message: "\(openFailure(errno)); \(consequence)")
        }
        guard info.st_mode & S_IFMT == S_IFDIR else {
            let kind = info.st_mode & S_IFMT == S_IFREG ? "a regular file" : fileKind(info.st_mode)
            return DataFileError(path: path, line: 0, message: "is \(kind), not a directory; \(consequence)")
        }
        guard access(path, R_OK | X_OK) == 0 else {
            return DataFileError(path: path, line: 0, message: "\(openFailure(errno)); \(consequence)")
        }
        return nil
    }

    /// Why `open` failed, in words.
    static func openFailure(_ code: Int32) -> String {
        switch code {
        case ENOENT: return "does not exist"
        case EACCES, EPERM: return "cannot be read: permission denied"
        default: return "cannot be read: \(String(cString: strerror(code)))"
        }
    }

    /// A file type in words, for messages (`a directory`, `a FIFO`…).
    public static func fileKind(_ mode: UInt32) -> String {
        switch mode & S_IFMT {
        case S_IFDIR: return "a directory"
        case S_IFCHR: return "a character device"
        case S_IFBLK: return "a block device"
        case S_IFIFO: return "a FIFO"
        case S_IFSOCK: return "a socket"
        case S_IFLNK: return "a symlink"
        default: return "an unknown kind of file"
        }
    }
}
