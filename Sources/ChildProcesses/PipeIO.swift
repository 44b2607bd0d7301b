#if canImport(Glibc)
import Glibc
#endif

/// Reads and writes on the parent's pipe ends, retrying what a signal interrupted.
enum PipeIO {
    /// What one read gave.
    enum Read: Equatable {
        /// `count` bytes, appended.
        case bytes(Int)
        /// The writer closed its end (every process holding it ended or closed it).
        case end
        /// Nothing was waiting (a non-blocking descriptor).
        case nothing
        /// The read failed: `errno`.
        case failed(Int32)
    }

    /// Reads what is waiting on `fd`, at most 64 KiB, into `buffer`.
    static func read(_ fd: Int32, into buffer: inout [UInt8]) -> Read {
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if count > 0 {
                buffer.append(contentsOf: chunk[..<count])
                return .bytes(count)
            }
            if count == 0 { return .end }
            if errno == EINTR { continue }
            return errno == EAGAIN ? .nothing : .failed(errno)
        }
    }

    /// Writes what `fd` takes of `bytes[written...]`, advancing `written`; false when the
    /// write failed (the reader is gone: EPIPE).
    static func write(_ fd: Int32, _ bytes: [UInt8], written: inout Int) -> Bool {
        while written < bytes.count {
            let count = bytes[written...].withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
            if count > 0 {
                written += count
            } else if count < 0 && errno == EINTR {
                continue
            } else {
                return count >= 0 || errno == EAGAIN
            }
        }
        return true
    }

    /// Makes `fd` non-blocking.
    static func setNonBlocking(_ fd: Int32) {
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
    }

    /// Waits up to `milliseconds` (-1: without end) for `fds`; their `revents` are set. False
    /// only when `poll` failed for another reason than a signal.
    static func poll(_ fds: inout [pollfd], milliseconds: Int32) -> Bool {
        let ready = Glibc.poll(&fds, nfds_t(fds.count), milliseconds)
        return ready >= 0 || errno == EINTR
    }
}
