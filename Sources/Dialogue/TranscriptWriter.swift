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

    public var description: String { description(entries: "turns", movable: true) }

    /// The sentence in a conversation whose lines hold `entries` ("turns", "utterances"), and
    /// whose transcript can be moved with `:transcript FILE` or not.
    func description(entries: String, movable: Bool) -> String {
        let kept = turnKept ? "; the \(entries) are kept and written there when it can take them" : ""
        let move = movable ? (turnKept ? ", or" : ";") + " choose another file with :transcript FILE" : ""
        return "cannot write the transcript to \(path): \(reason)" + kept + move
    }
}

/// Writes the transcript as JSON Lines, one line per finished turn, each line
/// handed to the system as soon as it is written so nothing is lost if the
/// program dies. Appends to an existing file, which other conversations may be
/// appending to as well. A line is written whole or not at all: when the file
/// takes only part of it (the disk is full), that part is cut off again unless
/// another writer has appended after it.
///
/// Only a regular file is taken: a FIFO, a device, a socket or a directory is
/// refused, and opening never waits (a FIFO without a reader would block for ever).
public final class TranscriptWriter: Sendable {
    /// The file being written.
    public let path: String
    private let descriptor: Int32
    /// Bytes of complete lines this writer wrote; also serializes the writes.
    private let bytesWritten: Mutex<UInt64>
    /// Whether opening the writer created the file.
    private let created: Bool

    /// Opens (creating it and its directory if needed) the regular file at `path` for
    /// appending; throws `TranscriptError` for anything else, without blocking.
    public init(path: String) throws {
        try Self.refuseIfNotRegular(path: path, status: Self.status(of: path))
        let directory = (path as NSString).deletingLastPathComponent
        if !directory.isEmpty {
            try? FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        }
        (descriptor, created) = try Self.openRegularFile(path)
        self.path = path
        bytesWritten = Mutex(0)
    }

    /// Opens `path` for appending, creating it if it is missing: the descriptor, and whether
    /// it was created. O_NONBLOCK makes the open fail instead of wait should the path have
    /// become a FIFO since it was checked; what was opened is checked again with `fstat`.
    private static func openRegularFile(_ path: String) throws -> (Int32, created: Bool) {
        let flags = O_WRONLY | O_APPEND | O_CLOEXEC | O_NONBLOCK | O_NOCTTY
        var descriptor = open(path, flags | O_CREAT | O_EXCL, 0o600)
        let created = descriptor >= 0
        if descriptor < 0, errno == EEXIST {
            descriptor = open(path, flags)
        }
        guard descriptor >= 0 else { throw TranscriptError(path: path, reason: systemReason(errno)) }
        var status = stat()
        do {
            guard fstat(descriptor, &status) == 0 else { throw TranscriptError(path: path, reason: systemReason(errno)) }
            try refuseIfNotRegular(path: path, status: status)
        } catch {
            close(descriptor)
            throw error
        }
        _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) & ~O_NONBLOCK)
        return (descriptor, created)
    }

    deinit { close(descriptor) }

    /// What `stat` says of `path`, or nil when there is nothing there yet.
    private static func status(of path: String) -> stat? {
        var status = stat()
        return stat(path, &status) == 0 ? status : nil
    }

    /// Throws naming the kind of file when `status` is not that of a regular file.
    private static func refuseIfNotRegular(path: String, status: stat?) throws {
        guard let status, status.st_mode & S_IFMT != S_IFREG else { return }
        throw TranscriptError(path: path, reason: "it is \(fileKind(status.st_mode)), not a regular file")
    }

    /// "a FIFO", "a character device", … for a file mode that is not a regular file's.
    static func fileKind(_ mode: mode_t) -> String {
        switch mode & S_IFMT {
        case S_IFDIR: "a directory"
        case S_IFIFO: "a FIFO"
        case S_IFCHR: "a character device"
        case S_IFBLK: "a block device"
        case S_IFSOCK: "a socket"
        default: "not a regular file"
        }
    }

    /// The system's words for `code`, lower-cased to sit inside a sentence ("is a directory").
    static func systemReason(_ code: Int32) -> String {
        let text = String(cString: strerror(code))
        return text.prefix(1).lowercased() + text.dropFirst()
    }

    /// Removes the file when this writer created it and it is still empty: a conversation
    /// that ended without a turn leaves no empty transcript behind. Returns whether it did.
    @discardableResult
    public func removeIfNothingWritten() -> Bool {
        guard created, bytesWritten.withLock({ $0 }) == 0 else { return false }
        var status = stat()
        guard fstat(descriptor, &status) == 0, status.st_size == 0 else { return false }
        return unlink(path) == 0
    }

    /// Appends one entry as a line.
    public func write(_ entry: TranscriptEntry) throws {
        try write(line: entry.jsonLine)
    }

    /// Appends `line` and a newline, whole: on failure what was written of it is cut
    /// off (unless another writer has appended since) and the error is thrown.
    public func write(line: String) throws {
        let bytes = Array((line + "\n").utf8)
        try bytesWritten.withLock { total in
            var offset = 0
            var lineStart: off_t = -1
            while offset < bytes.count {
                let written = bytes[offset...].withUnsafeBytes { Foundation.write(descriptor, $0.baseAddress, $0.count) }
                if written < 0, errno == EINTR { continue }
                guard written > 0 else {
                    let reason = written < 0 ? Self.systemReason(errno) : "the file took nothing"
                    if lineStart >= 0 { cutBack(to: lineStart) }
                    throw TranscriptError(path: path, reason: reason, turnKept: true)
                }
                // With O_APPEND the write landed at the end: it began `written` bytes before the new offset.
                if lineStart < 0 { lineStart = lseek(descriptor, 0, SEEK_CUR) - off_t(written) }
                offset += written
            }
            total += UInt64(bytes.count)
        }
    }

    /// Cuts the file back to `offset`, where a partly written line began, when the file
    /// still ends where this writer's last write did: nobody else's line is cut.
    private func cutBack(to offset: off_t) {
        var status = stat()
        guard offset >= 0, fstat(descriptor, &status) == 0, status.st_size == lseek(descriptor, 0, SEEK_CUR) else { return }
        _ = ftruncate(descriptor, offset)
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
