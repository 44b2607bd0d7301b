import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Writing a file so that a crash at any moment leaves either the old or the
/// new content, and an exclusive lock that serializes editors across processes.
enum AtomicFile {
    /// Writes `text` to a temporary file beside `path`, flushes it to disk
    /// (`fsync`), renames it over `path` (`rename` is atomic) and flushes the
    /// directory so the rename itself survives a crash.
    static func write(_ text: String, to path: String) throws {
        let directory = (path as NSString).deletingLastPathComponent
        let temporary = (directory as NSString).appendingPathComponent(".\((path as NSString).lastPathComponent).saving")
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw failure(temporary, "cannot be created") }
        do {
            try writeAll(Array(text.utf8), to: descriptor, path: temporary)
            guard fsync(descriptor) == 0 else { throw failure(temporary, "cannot be flushed to disk") }
            close(descriptor)
        } catch {
            close(descriptor)
            throw error
        }
        guard rename(temporary, path) == 0 else { throw failure(path, "cannot be replaced") }
        syncDirectory(directory)
    }

    /// Runs `body` holding an exclusive `flock` on `path` (created if missing).
    static func withLock<T>(_ path: String, _ body: () throws -> T) throws -> T {
        let descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw failure(path, "cannot be opened to lock the dictionary") }
        defer { close(descriptor) }
        while flock(descriptor, LOCK_EX) != 0 {
            guard errno == EINTR else { throw failure(path, "cannot be locked") }
        }
        defer { flock(descriptor, LOCK_UN) }
        return try body()
    }

    private static func writeAll(_ bytes: [UInt8], to descriptor: Int32, path: String) throws {
        var written = 0
        while written < bytes.count {
            let result = bytes[written...].withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
            if result < 0, errno == EINTR { continue }
            guard result > 0 else { throw failure(path, "cannot be written (disk full?)") }
            written += result
        }
    }

    private static func syncDirectory(_ directory: String) {
        let descriptor = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { return }
        fsync(descriptor)
        close(descriptor)
    }

    private static func failure(_ path: String, _ what: String) -> PronunciationError {
        .fileFailure(path: path, reason: "\(what): \(String(cString: strerror(errno)))")
    }
}
