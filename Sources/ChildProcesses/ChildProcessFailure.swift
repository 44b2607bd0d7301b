/// Why a child process could not answer a request: the one failure of every
/// child Parley drives (Apertium pipelines, the Whisper worker).
///
/// `child` names the process as a person knows it ("the Whisper worker",
/// "the pipeline"); every description is one sentence that starts with it.
public struct ChildProcessFailure: Error, Sendable, Equatable, CustomStringConvertible {
    /// What went wrong.
    public enum Kind: Sendable, Equatable {
        /// The process could not be started: the reason (the program and the system's word).
        case couldNotStart(String)
        /// The process ended, or closed its output; `status` is its exit status when known
        /// (128 + the signal for a killed one), `stderrTail` the last line it wrote on stderr.
        case exited(status: Int32?, stderrTail: String)
        /// No answer came within the time allowed.
        case timedOut(seconds: Double)
        /// The process exited, but one it started (and left running) still holds its output open.
        case outputHeldOpen
        /// The answer grew past `bytes` without ending.
        case answerTooLong(bytes: Int)
        /// The answer was not the one to the request (a stage flushed on its own, an answer to
        /// another request, a frame that cannot be read): what was seen.
        case outOfStep(String)
    }

    /// The process, as a person knows it ("the Whisper worker").
    public var child: String
    /// What went wrong.
    public var kind: Kind

    /// A failure of `child`.
    public init(_ child: String, _ kind: Kind) {
        self.child = child
        self.kind = kind
    }

    public var description: String {
        switch kind {
        case let .couldNotStart(reason):
            "\(child) could not be started: \(reason)"
        case let .exited(status, stderrTail):
            "\(child) stopped" + (status.map(Self.status) ?? "") + (stderrTail.isEmpty ? "" : ": \(stderrTail)")
        case let .timedOut(seconds):
            "\(child) gave no answer within \(Self.seconds(seconds))"
        case .outputHeldOpen:
            "\(child) exited, but a process it started still holds its output open"
        case let .answerTooLong(bytes):
            "\(child)'s answer passed \(bytes) bytes without ending"
        case let .outOfStep(detail):
            "\(child) answered out of step (\(detail))"
        }
    }

    /// " (status 3)", or " (killed by signal 9)" for a status over 128, as a shell reports one.
    private static func status(_ status: Int32) -> String {
        status > 128 && status < 192 ? " (killed by signal \(status - 128))" : " (status \(status))"
    }

    /// `seconds` with one decimal, or none when whole, and the unit ("1 second", "2.5 seconds").
    private static func seconds(_ seconds: Double) -> String {
        let tenths = (seconds * 10).rounded() / 10
        let number = tenths == tenths.rounded() ? String(Int(tenths)) : String(tenths)
        return number + (number == "1" ? " second" : " seconds")
    }
}
