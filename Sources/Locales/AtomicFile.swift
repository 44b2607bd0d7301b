import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Writing a file so that a crash at any moment leaves either the old or the
/// new content, and an exclusive lock that serializes editors across processes.
///
/// A symlink is written through: the file it points to gets the new content
/// and the link stays. Anything at the path that is not a regular file (a
/// device, a FIFO, a directory, a socket) is refused and left as it is.
public enum AtomicFile {
    /// Writes `text` to a temporary file beside the file `path` names, flushes it
    /// to disk (`fsync`), renames it over that file (`rename` is atomic) and
    /// flushes the directory so the rename itself survives a crash. An existing
    /// file keeps its permissions.
    public static func write(_ text: String, to path: String) throws {
        let target = try destination(of: path)
        let directory = (target as NSString).deletingLastPathComponent
        let temporary = (directory as NSString).appendingPathComponent(".\((target as NSString).lastPathComponent).saving")
        unlink(temporary)
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else {
            throw errno == ENOENT ? FileWriteError.failure(path: path, reason: "cannot be written, its directory does not exist")
                                  : failure(path, "cannot be written")
        }
        do {
            try keepPermissions(of: target, on: descriptor)
            try writeAll(Array(text.utf8), to: descriptor, path: temporary)
            guard fsync(descriptor) == 0 else { throw failure(temporary, "cannot be flushed to disk") }
            close(descriptor)
        } catch {
            close(descriptor)
            unlink(temporary)
            throw error
        }
        guard rename(temporary, target) == 0 else {
            let error = failure(target, "cannot be replaced")
            unlink(temporary)
            throw error
        }
        syncDirectory(directory)
    }

    /// The path a write to `path` must replace: the end of its chain of symlinks
    /// (which may not exist yet). Throws `FileWriteError.notRegularFile` for anything else.
    static func destination(of path: String) throws -> String {
        var current = path
        for _ in 0..<40 {
            var info = stat()
            guard lstat(current, &info) == 0 else {
                guard errno == ENOENT else { throw failure(current, "cannot be examined") }
                return current
            }
            switch info.st_mode & S_IFMT {
            case S_IFREG:
                return current
            case S_IFLNK:
                current = try linkTarget(current)
            default:
                throw FileWriteError.notRegularFile(path: current, kind: DataFile.fileKind(info.st_mode))
            }
        }
        throw FileWriteError.failure(path: path, reason: "is a chain of too many symlinks (or a loop)")
    }

    /// What the symlink at `path` points to, relative to the link's own directory.
    private static func linkTarget(_ path: String) throws -> String {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let length = readlink(path, &buffer, buffer.count - 1)
        guard length >= 0 else { throw failure(path, "cannot be read as a symlink") }
        let target = String(decoding: buffer.prefix(length).map { UInt8(bitPattern: $0) }, as: UTF8.self)
        guard !target.hasPrefix("/") else { return target }
        return ((path as NSString).deletingLastPathComponent as NSString).appendingPathComponent(target)
    }

    /// Gives the new file the permissions of the one it replaces, if any.
    private static func keepPermissions(of target: String, on descriptor: Int32) throws {
        var info = stat()
        guard stat(target, &info) == 0 else { return }
        guard fchmod(descriptor, info.st_mode & 0o7777) == 0 else { throw failure(target, "cannot keep its permissions") }
    }

    /// Runs `body` holding an exclusive `flock` on `path` (created if missing).
    public static func withLock<T>(_ path: String, _ body: () throws -> T) throws -> T {
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

    private static func failure(_ path: String, _ what: String) -> FileWriteError {
        .failure(path: path, reason: "\(what): \(String(cString: strerror(errno)))")
    }
}
