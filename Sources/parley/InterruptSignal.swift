import Dispatch
import Foundation
import REPL

/// The write end of the interrupt pipe, for the signal handler; set before it is installed.
nonisolated(unsafe) private var interruptWriteDescriptor: Int32 = -1

/// Turns Ctrl-C (SIGINT) into a call of `handler` instead of ending the process,
/// for as long as it is alive; the command then stops what it is doing and
/// leaves cleanly. `cancel()` restores the default behaviour.
///
/// The handler is in place when `init` returns: it only writes a byte to a pipe,
/// which keeps it until the read source on a dispatch queue has started watching.
/// (A dispatch signal source starts watching later, on the dispatch manager
/// thread, and a Ctrl-C pressed before then would be lost.)
final class InterruptSignal {
    private let source: any DispatchSourceRead

    init(handler: @escaping @Sendable () -> Void) throws {
        let pipe = try WakePipe()
        source = DispatchSource.makeReadSource(fileDescriptor: pipe.readDescriptor, queue: .global())
        source.setEventHandler {
            if !pipe.drain().isEmpty { handler() }
        }
        source.setCancelHandler { _ = pipe }  // the pipe stays open until the source lets go of it
        source.resume()
        interruptWriteDescriptor = pipe.writeDescriptor
        signal(SIGINT) { _ in
            var byte: UInt8 = 1
            _ = write(interruptWriteDescriptor, &byte, 1)
        }
    }

    /// Stops catching SIGINT.
    func cancel() {
        signal(SIGINT, SIG_DFL)
        source.cancel()
    }
}
