public import Foundation
import Synchronization

/// A transcript file could not be opened or written.
public struct TranscriptError: Error, Sendable, CustomStringConvertible {
    /// The file.
    public var path: String
    /// What the system said.
    public var reason: String
    /// True when a turn could not be written to a file that was open: the turn is kept.
    public var turnKept = false

    public init(path: String, reason: String, turnKept: Bool = false) {
        self.path = path
        self.reason = reason
        self.turnKept = turnKept
    }

    /// The sentence for a file named on the command line, before the conversation starts.
    public var atStartDescription: String {
        "cannot write the transcript to \(path): \(reason); give another file with --transcript FILE, or --no-transcript"
    }

    public var description: String {
        turnKept
            ? "cannot write the transcript to \(path): \(reason); the turns are kept and written there when it can take them, or choose another file with :transcript FILE"
            : "cannot write the transcript to \(path): \(reason); choose another file with :transcript FILE"
    }
}

/// Writes the transcript as JSON Lines, one line per finished turn, each line
/// handed to the system as soon as it is written so nothing is lost if the
/// program dies. Appends to an existing file. A line is written whole or not
/// at all: when a regular file takes only part of it (the disk is full), the
/// file is cut back to its last complete line.
public final class TranscriptWriter: Sendable {
    /// The file being written.
    public let path: String
    /// Whether the file is a regular file; only a regular file is cut back and read back
    /// (a device such as `/dev/zero` would never end).
    public let isRegularFile: Bool
    private let descriptor: Int32
    /// The file's length when it was opened: what this writer wrote starts there.
    private let startOffset: UInt64
    /// Where the last complete line this writer wrote ends.
    private let committedEnd: Mutex<UInt64>
    /// Whether opening the writer created the file.
    private let created: Bool

    /// Opens (creating it and its directory if needed) the file at `path` for appending.
    public init(path: String) throws {
        let directory = (path as NSString).deletingLastPathComponent
        if !directory.isEmpty {
            try? FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        }
        var descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_APPEND | O_CLOEXEC, 0o600)
        created = descriptor >= 0
        if descriptor < 0, errno == EEXIST {
            descriptor = open(path, O_WRONLY | O_APPEND | O_CLOEXEC)
        }
        guard descriptor >= 0 else { throw TranscriptError(path: path, reason: Self.systemReason(errno)) }
        var status = stat()
        let regular = fstat(descriptor, &status) == 0 && (status.st_mode & S_IFMT) == S_IFREG
        self.path = path
        self.descriptor = descriptor
        isRegularFile = regular
        startOffset = regular ? UInt64(max(lseek(descriptor, 0, SEEK_END), 0)) : 0
        committedEnd = Mutex(startOffset)
    }

    deinit { close(descriptor) }

    /// The system's words for `code`, lower-cased to sit inside a sentence ("is a directory").
    static func systemReason(_ code: Int32) -> String {
        let text = String(cString: strerror(code))
        return text.prefix(1).lowercased() + text.dropFirst()
    }

    /// Removes the file when this writer created it and it is still empty: a conversation
    /// that ended without a turn leaves no empty transcript behind. Returns whether it did.
    @discardableResult
    public func removeIfNothingWritten() -> Bool {
        guard created, isRegularFile, committedEnd.withLock({ $0 }) == 0 else { return false }
        var status = stat()
        guard fstat(descriptor, &status) == 0, status.st_size == 0 else { return false }
        return unlink(path) == 0
    }

    /// Appends one entry as a line.
    public func write(_ entry: TranscriptEntry) throws {
        try write(line: entry.jsonLine)
    }

    /// Appends `line` and a newline, whole: on failure a regular file is cut back
    /// to its last complete line and the error is thrown.
    public func write(line: String) throws {
        let bytes = Array((line + "\n").utf8)
        try committedEnd.withLock { end in
            var offset = 0
            while offset < bytes.count {
                let written = bytes[offset...].withUnsafeBytes { Foundation.write(descriptor, $0.baseAddress, $0.count) }
                if written < 0, errno == EINTR { continue }
                guard written > 0 else {
                    let reason = written < 0 ? Self.systemReason(errno) : "the file took nothing"
                    if offset > 0, isRegularFile { _ = ftruncate(descriptor, off_t(end)) }
                    throw TranscriptError(path: path, reason: reason, turnKept: true)
                }
                offset += written
            }
            end += UInt64(bytes.count)
        }
    }

    /// The complete lines this writer wrote (not what the file held before), read back
    /// from the file, so a conversation never keeps its turns in memory to copy them.
    /// Only a regular file is read back, and only as far as this writer wrote.
    public func writtenLines() throws -> [String] {
        guard isRegularFile else { throw TranscriptError(path: path, reason: "it is not a regular file and cannot be read back") }
        let (start, end) = (startOffset, committedEnd.withLock { $0 })
        let reader = open(path, O_RDONLY | O_CLOEXEC)
        guard reader >= 0 else { throw TranscriptError(path: path, reason: Self.systemReason(errno)) }
        defer { close(reader) }
        var data = [UInt8](repeating: 0, count: Int(end - start))
        var offset = 0
        while offset < data.count {
            let count = data[offset...].withUnsafeMutableBytes { pread(reader, $0.baseAddress, $0.count, off_t(start) + off_t(offset)) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { break }
            offset += count
        }
        return String(decoding: data[..<offset], as: UTF8.self).split(separator: "\n").map(String.init)
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
