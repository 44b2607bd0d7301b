import Dispatch
import Foundation
import REPL

/// Turns Ctrl-C (SIGINT) into a call of `handler` instead of ending the process,
/// for as long as it is alive; the command then stops what it is doing and
/// leaves cleanly. `cancel()` restores the default behaviour.
///
/// The signal is caught from the moment `init` returns: a signal pipe keeps it
/// until the dispatch read source watching the pipe has started. (A dispatch
/// signal source starts watching later, on the dispatch manager thread, and a
/// Ctrl-C pressed before then would be lost.)
final class InterruptSignal {
    private let signals: SignalPipe
    private let source: any DispatchSourceRead

    init(handler: @escaping @Sendable () -> Void) throws {
        let signals = try SignalPipe(signals: [SIGINT])
        source = DispatchSource.makeReadSource(fileDescriptor: signals.readDescriptor, queue: .global())
        source.setEventHandler {
            if !signals.received().isEmpty { handler() }
        }
        source.resume()
        signals.install()
        self.signals = signals
    }

    /// Stops catching SIGINT.
    func cancel() {
        signals.uninstall()
        source.cancel()
    }
}
