import Foundation

/// The write end of the signal pipe; set once before handlers are installed.
nonisolated(unsafe) private var signalWriteDescriptor: Int32 = -1

/// Turns SIGINT, SIGTERM and SIGWINCH into bytes on a pipe the poll loop
/// watches (the self-pipe trick): the handler only writes a byte, and the
/// loop does the work on its own thread, where readline may be called.
final class SignalPipe {
    /// The signals forwarded.
    static let signals: [Int32] = [SIGINT, SIGTERM, SIGWINCH]
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

    /// Installs the handlers.
    func install() {
        signalWriteDescriptor = writeDescriptor
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
        drainPipe(readDescriptor).map(Int32.init)
    }
}
