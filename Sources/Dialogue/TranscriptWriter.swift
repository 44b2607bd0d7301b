public import Foundation

/// A transcript file could not be opened or written.
public struct TranscriptError: Error, Sendable, CustomStringConvertible {
    /// The file.
    public var path: String
    /// What the system said.
    public var reason: String

    public var description: String {
        "cannot write the transcript to \(path): \(reason); choose another file with :transcript FILE"
    }
}

/// Writes the transcript as JSON Lines, one line per finished turn, each line
/// handed to the system as soon as it is written so nothing is lost if the
/// program dies. Appends to an existing file.
public final class TranscriptWriter: Sendable {
    /// The file being written.
    public let path: String
    private let descriptor: Int32
    /// The file's length when it was opened: what this writer wrote starts there.
    private let startOffset: UInt64

    /// Opens (creating it and its directory if needed) the file at `path` for appending.
    public init(path: String) throws {
        let directory = (path as NSString).deletingLastPathComponent
        if !directory.isEmpty {
            try? FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        }
        let descriptor = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw TranscriptError(path: path, reason: String(cString: strerror(errno))) }
        self.path = path
        self.descriptor = descriptor
        startOffset = UInt64(max(lseek(descriptor, 0, SEEK_END), 0))
    }

    deinit { close(descriptor) }

    /// Appends one entry as a line.
    public func write(_ entry: TranscriptEntry) throws {
        try write(line: entry.jsonLine)
    }

    /// Appends `line` and a newline in one system call.
    public func write(line: String) throws {
        let bytes = Array((line + "\n").utf8)
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { Foundation.write(descriptor, $0.baseAddress, $0.count) }
            if written < 0, errno == EINTR { continue }
            guard written > 0 else { throw TranscriptError(path: path, reason: String(cString: strerror(errno))) }
            offset += written
        }
    }

    /// The lines this writer wrote (not what the file held before), read back from the file,
    /// so a conversation never keeps its turns in memory to copy them.
    public func writtenLines() throws -> [String] {
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw TranscriptError(path: path, reason: "it cannot be read back")
        }
        defer { try? handle.close() }
        try handle.seek(toOffset: startOffset)
        let data = try handle.readToEnd() ?? Data()
        return String(decoding: data, as: UTF8.self).split(separator: "\n").map(String.init)
    }

    /// Where a session's transcript goes by default: `STATE/transcripts/YYYY-MM-DDTHH-MM-SS.jsonl`
    /// (UTC), under the XDG state directory Parley uses.
    public static func defaultPath(stateDirectory: String, date: Date = Date()) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyy-MM-dd'T'HH-mm-ss"
        return "\(stateDirectory)/transcripts/\(formatter.string(from: date)).jsonl"
    }
}
