import Foundation

/// A pipe that wakes whoever watches it: any thread (or a signal handler)
/// writes a byte, the watcher (the terminal's poll loop) drains it. Both ends
/// are non-blocking and closed on exec.
final class WakePipe: Sendable {
    /// The end the poll loop watches.
    let readDescriptor: Int32
    /// The end wakers write to.
    let writeDescriptor: Int32

    init() throws {
        var descriptors: [Int32] = [0, 0]
        guard pipe(&descriptors) == 0 else {
            throw TerminalError("cannot create a pipe: \(String(cString: strerror(errno)))")
        }
        for descriptor in descriptors {
            _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_NONBLOCK)
            _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
        }
        (readDescriptor, writeDescriptor) = (descriptors[0], descriptors[1])
    }

    deinit {
        close(readDescriptor)
        close(writeDescriptor)
    }

    /// Writes one byte.
    func wake(_ byte: UInt8 = 1) {
        var byte = byte
        _ = write(writeDescriptor, &byte, 1)
    }

    /// Reads and discards whatever is in the pipe; returns the bytes.
    @discardableResult
    func drain() -> [UInt8] {
        var all: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 64)
        while true {
            let count = read(readDescriptor, &buffer, buffer.count)
            if count > 0 { all += buffer[0..<count]; continue }
            if count < 0, errno == EINTR { continue }
            return all
        }
    }
}
