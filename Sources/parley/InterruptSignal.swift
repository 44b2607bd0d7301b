import Dispatch
import Foundation

/// Turns Ctrl-C (SIGINT) into a call of `handler` instead of ending the process,
/// for as long as it is alive; the command then stops what it is doing and
/// leaves cleanly. `cancel()` restores the default behaviour.
final class InterruptSignal {
    private let source: any DispatchSourceSignal

    init(handler: @escaping @Sendable () -> Void) {
        signal(SIGINT, SIG_IGN)
        source = DispatchSource.makeSignalSource(signal: SIGINT, queue: .global())
        source.setEventHandler(handler: handler)
        source.resume()
    }

    /// Stops catching SIGINT.
    func cancel() {
        source.cancel()
        signal(SIGINT, SIG_DFL)
    }
}
