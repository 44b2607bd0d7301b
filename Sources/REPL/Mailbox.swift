import Foundation

/// Work for the terminal thread, posted from any thread: each post wakes the
/// poll loop through a pipe, and the loop runs the work in order.
final class Mailbox: @unchecked Sendable {
    private let lock = NSLock()
    private var pending: [@Sendable () -> Void] = []
    private let pipe: WakePipe
    /// The end the poll loop watches.
    var readDescriptor: Int32 { pipe.readDescriptor }

    init() throws {
        pipe = try WakePipe()
    }

    /// Queues `work` for the terminal thread.
    func post(_ work: @escaping @Sendable () -> Void) {
        lock.withLock { pending.append(work) }
        pipe.wake()
    }

    /// Runs everything queued so far; on the terminal thread.
    func runPending() {
        pipe.drain()
        let work = lock.withLock { () -> [@Sendable () -> Void] in
            defer { pending = [] }
            return pending
        }
        work.forEach { $0() }
    }
}
