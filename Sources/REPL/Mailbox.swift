import Foundation

/// Work for the terminal thread, posted from any thread: each post wakes the
/// poll loop through a pipe, and the loop runs the work in order.
final class Mailbox: @unchecked Sendable {
    private let lock = NSLock()
    private var pending: [@Sendable () -> Void] = []
    /// The end the poll loop watches.
    let readDescriptor: Int32
    private let writeDescriptor: Int32

    init() throws {
        (readDescriptor, writeDescriptor) = try makePipe()
    }

    deinit {
        close(readDescriptor)
        close(writeDescriptor)
    }

    /// Queues `work` for the terminal thread.
    func post(_ work: @escaping @Sendable () -> Void) {
        lock.withLock { pending.append(work) }
        var byte: UInt8 = 1
        _ = write(writeDescriptor, &byte, 1)
    }

    /// Runs everything queued so far; on the terminal thread.
    func runPending() {
        drainPipe(readDescriptor)
        let work = lock.withLock { () -> [@Sendable () -> Void] in
            defer { pending = [] }
            return pending
        }
        work.forEach { $0() }
    }
}

/// A pipe whose ends do not block and are closed on exec.
func makePipe() throws -> (read: Int32, write: Int32) {
    var descriptors: [Int32] = [0, 0]
    guard pipe(&descriptors) == 0 else {
        throw TerminalError("cannot create a pipe: \(String(cString: strerror(errno)))")
    }
    for descriptor in descriptors {
        _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_NONBLOCK)
        _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
    }
    return (descriptors[0], descriptors[1])
}

/// Reads and discards whatever is in a non-blocking pipe; returns the bytes.
@discardableResult
func drainPipe(_ descriptor: Int32) -> [UInt8] {
    var all: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 64)
    while true {
        let count = read(descriptor, &buffer, buffer.count)
        if count > 0 { all += buffer[0..<count]; continue }
        if count < 0, errno == EINTR { continue }
        return all
    }
}

/// The terminal could not be set up.
public struct TerminalError: Error, Sendable, CustomStringConvertible {
    /// One sentence.
    public var message: String
    init(_ message: String) { self.message = message }
    public var description: String { message }
}
