import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The cookie a PulseAudio server authenticates its clients with: the 256 bytes of a cookie
/// file, read by Parley and never written.
///
/// libpulse, given a cookie file, opens it for writing and replaces what it finds there when
/// the file is missing, empty or short (and a FIFO blocks its mainloop thread in `read`), so
/// Parley never gives it a person's file: it reads the bytes here, refusing anything but a
/// regular file of exactly the protocol's size, and `PulseContext` hands libpulse a private
/// copy of them (`handedPath()`).
///
/// ```swift
/// let cookie = try PulseCookie(readingFile: "/home/me/studio-cookie")
/// let connection = AudioConnection(server: "tcp:studio:4713", cookie: cookie)
/// ```
public struct PulseCookie: Sendable, Hashable {
    /// The protocol's cookie size in bytes (`PA_NATIVE_COOKIE_LENGTH`).
    public static let size = 256

    /// The file the bytes were read from, as given.
    public let path: String
    /// The cookie's bytes, `size` of them.
    let bytes: [UInt8]

    /// Reads the cookie in `path` (a symbolic link is followed), opening it read-only and never
    /// blocking: anything but a readable regular file of exactly `size` bytes is refused with
    /// the reason, and its bytes are left as they are.
    public init(readingFile path: String) throws(PulseCookieError) {
        var status = stat()
        guard stat(path, &status) == 0 else { throw PulseCookieError(path: path, errno: errno) }
        try Self.check(status, path: path)
        let descriptor = open(path, O_RDONLY | O_NOCTTY | O_NONBLOCK | O_CLOEXEC)
        guard descriptor >= 0 else { throw PulseCookieError(path: path, errno: errno) }
        defer { close(descriptor) }
        var opened = stat()
        guard fstat(descriptor, &opened) == 0 else { throw PulseCookieError(path: path, errno: errno) }
        // The file opened is the one checked, not one put in its place since.
        guard opened.st_dev == status.st_dev, opened.st_ino == status.st_ino else {
            throw PulseCookieError(path: path, problem: "changed while it was read")
        }
        try Self.check(opened, path: path)
        var bytes = [UInt8](repeating: 0, count: Self.size)
        var count = 0
        while count < Self.size {
            let read = bytes.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress! + count, Self.size - count, off_t(count)) }
            if read < 0, errno == EINTR { continue }
            guard read > 0 else {
                throw read < 0 ? PulseCookieError(path: path, errno: errno) : PulseCookieError(path: path, problem: "changed while it was read")
            }
            count += read
        }
        (self.path, self.bytes) = (path, bytes)
    }

    /// Refuses a file that is not a regular file of exactly `size` bytes.
    private static func check(_ status: stat, path: String) throws(PulseCookieError) {
        let kinds: [mode_t: String] = [S_IFDIR: "a directory", S_IFIFO: "a FIFO", S_IFCHR: "a device", S_IFBLK: "a device",
                                       S_IFSOCK: "a socket"]
        let kind = status.st_mode & S_IFMT
        guard kind == S_IFREG else {
            throw PulseCookieError(path: path, problem: "is \(kinds[kind] ?? "not a regular file"), not a cookie file")
        }
        guard status.st_size == Self.size else {
            throw PulseCookieError(path: path, problem: status.st_size == 0 ? "is empty, where a cookie is \(Self.size) bytes"
                                   : "is \(status.st_size) bytes, where a cookie is \(Self.size) bytes")
        }
    }

    /// The cookie `$PULSE_COOKIE` names, read as any other; nil when the variable is unset or empty.
    public static func fromEnvironment() -> Result<PulseCookie, PulseCookieError>? {
        guard let path = getenv("PULSE_COOKIE").map({ String(cString: $0) }), !path.isEmpty else { return nil }
        return Result { () throws(PulseCookieError) in try PulseCookie(readingFile: path) }
    }
}

/// A cookie file that Parley does not use, and why; its bytes are left as they are.
public struct PulseCookieError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The file, as given.
    public var path: String
    /// Why, as the end of a sentence about the file: "is empty, where a cookie is 256 bytes".
    public var problem: String

    /// "FILE PROBLEM".
    public var description: String { "\(path) \(problem)" }

    init(path: String, problem: String) {
        (self.path, self.problem) = (path, problem)
    }

    /// The failure of a call on the file, in the system's words.
    init(path: String, errno code: Int32) {
        self.init(path: path, problem: code == ENOENT ? "does not exist"
                  : "cannot be read (\(String(cString: strerror(code)).lowercased()))")
    }
}
