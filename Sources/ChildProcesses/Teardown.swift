#if canImport(Glibc)
import Glibc
#endif

extension SpawnedProcess {
    /// How a child ended.
    public enum Termination: Sendable, Equatable {
        /// It exited with this code.
        case exited(Int32)
        /// This signal ended it.
        case signalled(Int32)
        /// Something else reaped it, and its status went with that.
        case lost

        /// A raw `waitpid` status.
        init(waitStatus raw: Int32) {
            self = raw & 0x7f == 0 ? .exited((raw >> 8) & 0xff) : .signalled(raw & 0x7f)
        }

        /// The status as a shell reports it: the code, 128 + the signal, or -1 when lost.
        public var status: Int32 {
            switch self {
            case let .exited(code): code
            case let .signalled(signal): 128 + signal
            case .lost: -1
            }
        }
    }

    /// Ends the child as `teardown` says and reaps it; how it ended. Safe to call twice, and
    /// on a child that has ended already (nothing is then sent).
    @discardableResult
    public func tearDown(_ teardown: Teardown) -> Termination {
        for step in teardown.steps {
            switch step {
            case .closeInput:
                closeInput()
            case let .send(signal, toGroup):
                // Asked first, so that a child which has just ended is reaped, not signalled.
                if let termination { return termination }
                send(signal, toGroup: toGroup)
            case let .wait(seconds):
                if reap(within: seconds) != nil { return termination ?? .lost }
            }
        }
        waitForExit()
        return termination ?? .lost
    }
}

/// How a running child is ended, written down as data: steps taken in order until the
/// child has ended. The last step sends SIGKILL, so every teardown ends.
///
/// A step that signals the child alone leaves what the child started to it; one that
/// signals the group ends them all at once.
public struct Teardown: Sendable, Equatable {
    /// One step of a teardown.
    public enum Step: Sendable, Equatable {
        /// Closes the child's input: a child that reads to its end then exits by itself.
        case closeInput
        /// Sends a signal to the child alone, or to its whole process group.
        case send(Int32, toGroup: Bool)
        /// Waits up to this many seconds for the child to end by itself.
        case wait(seconds: Double)
    }

    /// The steps, in order.
    public let steps: [Step]

    /// A teardown of `steps`, the last of which sends SIGKILL.
    public init(_ steps: [Step]) {
        guard case .send(SIGKILL, _)? = steps.last else { preconditionFailure("a teardown ends with SIGKILL: \(steps)") }
        self.steps = steps
    }

    /// SIGKILL to the child alone.
    public static let kill = Teardown([.send(SIGKILL, toGroup: false)])

    /// SIGKILL to the child's whole process group.
    public static let killGroup = Teardown([.send(SIGKILL, toGroup: true)])

    /// SIGTERM to the child, which may clean up and leave; SIGKILL after `grace` seconds if it
    /// still runs (it ignores or blocks SIGTERM, or hangs).
    public static func terminate(grace: Double) -> Teardown {
        Teardown([.send(SIGTERM, toGroup: false), .wait(seconds: grace), .send(SIGKILL, toGroup: false)])
    }

    /// The input closed, so a child that reads to its end exits by itself (and a shell reaps
    /// its own stages); its whole group killed after `grace` seconds if it still runs.
    public static func closingInput(grace: Double) -> Teardown {
        Teardown([.closeInput, .wait(seconds: grace), .send(SIGKILL, toGroup: true)])
    }
}
