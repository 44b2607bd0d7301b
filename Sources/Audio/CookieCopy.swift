import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A private copy of a cookie's bytes for libpulse to read in place of a person's file: an
/// unlinked shared-memory file, open while this object lives and reached as
/// `/proc/self/fd/N`. libpulse opens a cookie file read-write and may rewrite it; this copy
/// is the only file it can touch, and no other process can open it.
final class CookieCopy {
    private let descriptor: Int32

    /// The path libpulse is given (`$PULSE_COOKIE`).
    var path: String { "/proc/self/fd/\(descriptor)" }

    /// A copy of `cookie`; nil when no shared-memory file can be made or written.
    init?(_ cookie: PulseCookie) {
        let name = "/parley-cookie-\(getpid())-\(UUID().uuidString)"
        let descriptor = shm_open(name, O_RDWR | O_CREAT | O_EXCL, 0o600)  // close-on-exec, as shm_open opens
        guard descriptor >= 0 else { return nil }
        shm_unlink(name)
        var written = 0
        while written < cookie.bytes.count {
            let count = cookie.bytes.withUnsafeBytes {
                pwrite(descriptor, $0.baseAddress! + written, $0.count - written, off_t(written))
            }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else {
                close(descriptor)
                return nil
            }
            written += count
        }
        self.descriptor = descriptor
    }

    deinit { close(descriptor) }
}
