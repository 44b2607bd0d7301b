import Foundation

/// The write end of the installed signal pipe; set before its handlers are installed.
nonisolated(unsafe) private var signalWriteDescriptor: Int32 = -1

/// Turns signals into bytes on a pipe (the self-pipe trick): the handler only
/// writes the signal's number, and whoever watches `readDescriptor` (the
/// terminal's poll loop, a dispatch read source) does the work on its own
/// thread. The handlers are in place when `install()` returns, and the pipe
/// keeps a signal until it is read. One signal pipe is installed at a time.
public final class SignalPipe: Sendable {
    /// What the terminal forwards: Ctrl-C, termination, the terminal closing, and a resized window.
    public static let terminalSignals: [Int32] = [SIGINT, SIGTERM, SIGHUP, SIGWINCH]
    /// The signals forwarded.
    public let signals: [Int32]
    private let pipe: WakePipe
    /// The end to watch.
    public var readDescriptor: Int32 { pipe.readDescriptor }

    public init(signals: [Int32] = SignalPipe.terminalSignals) throws {
        self.signals = signals
        pipe = try WakePipe()
    }

    /// Installs the handlers.
    public func install() {
        signalWriteDescriptor = pipe.writeDescriptor
        for number in signals {
            signal(number) { number in
                var byte = UInt8(truncatingIfNeeded: number)
                _ = write(signalWriteDescriptor, &byte, 1)
            }
        }
    }

    /// Restores the default handlers.
    public func uninstall() {
        for number in signals { signal(number, SIG_DFL) }
    }

    /// The signals received since the last call, in order.
    public func received() -> [Int32] {
        pipe.drain().map(Int32.init)
    }
}
