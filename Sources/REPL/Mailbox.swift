import Foundation
import Synchronization

/// Work for the terminal thread, posted from any thread: each post wakes the
/// poll loop through a pipe, and the loop runs the work in order.
final class Mailbox: Sendable {
    private let pending = Mutex<[@Sendable () -> Void]>([])
    private let pipe: WakePipe
    /// The end the poll loop watches.
    var readDescriptor: Int32 { pipe.readDescriptor }

    init() throws {
        pipe = try WakePipe()
    }

    /// Queues `work` for the terminal thread.
    func post(_ work: @escaping @Sendable () -> Void) {
        pending.withLock { $0.append(work) }
        pipe.wake()
    }

    /// Runs everything queued so far; on the terminal thread.
    func runPending() {
        pipe.drain()
        let work = pending.withLock { pending -> [@Sendable () -> Void] in
            defer { pending = [] }
            return pending
        }
        work.forEach { $0() }
    }
}
