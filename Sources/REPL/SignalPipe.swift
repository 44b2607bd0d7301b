import Foundation

/// The write end of the signal pipe; set once before handlers are installed.
nonisolated(unsafe) private var signalWriteDescriptor: Int32 = -1

/// Turns SIGINT, SIGTERM and SIGWINCH into bytes on a pipe the poll loop
/// watches (the self-pipe trick): the handler only writes a byte, and the
/// loop does the work on its own thread, where readline may be called.
final class SignalPipe {
    /// The signals forwarded.
    static let signals: [Int32] = [SIGINT, SIGTERM, SIGWINCH]
    private let pipe: WakePipe
    /// The end the poll loop watches.
    var readDescriptor: Int32 { pipe.readDescriptor }

    init() throws {
        pipe = try WakePipe()
    }

    /// Installs the handlers.
    func install() {
        signalWriteDescriptor = pipe.writeDescriptor
        for number in Self.signals {
            signal(number) { number in
                var byte = UInt8(truncatingIfNeeded: number)
                _ = write(signalWriteDescriptor, &byte, 1)
            }
        }
    }

    /// Restores the default handlers.
    func uninstall() {
        for number in Self.signals { signal(number, SIG_DFL) }
    }

    /// The signals received since the last call, in order.
    func received() -> [Int32] {
        pipe.drain().map(Int32.init)
    }
}
