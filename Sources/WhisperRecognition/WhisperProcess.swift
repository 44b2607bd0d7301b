import ChildProcesses
import Foundation

/// One running Whisper worker process: a `FramedChild` that speaks `WhisperFrames`.
///
/// This type only encodes requests and decodes answers; the child-process layer starts the
/// worker (own process group, no inherited descriptors), reads its frames on a reader
/// thread, writes on a serial queue, matches answers to request ids, and turns any failure
/// (the process ending, a timeout, an answer out of step) into a `ChildProcessFailure` for
/// every waiting request, killing the process: the owner starts a new one.
final class WhisperProcess: Sendable {
    /// How the worker's failures name it.
    static let name = "the Whisper worker"

    private let child: FramedChild

    /// The process id, for tests and diagnostics.
    var pid: Int32 { child.pid }

    /// Starts `arguments[0]` with the rest as arguments, in Parley's environment unless `environment` is given.
    init(arguments: [String], environment: [String: String]? = nil) throws {
        child = try FramedChild(arguments, environment: environment, name: Self.name,
                                maximumFrameBytes: WhisperFrames.maximumResponseBytes,
                                answerID: { try? JSONDecoder().decode(WhisperReplyID.self, from: $0).id })
    }

    /// Waits for the worker's first message, which says whether the model loaded.
    func ready(timeout: Double) async throws -> WhisperReady {
        let greeting = try await child.greeting(timeout: timeout)
        guard let ready = try? JSONDecoder().decode(WhisperReady.self, from: greeting) else {
            child.terminate()
            throw ChildProcessFailure(Self.name, .outOfStep("a first message that is not its ready message"))
        }
        return ready
    }

    /// Sends one request and waits for its answer frame's body, at most `timeout` seconds.
    func send(_ request: WhisperCall.Frame, features: [Float], timeout: Double) async throws -> Data {
        let frame = try WhisperFrames.request(request, payload: features)
        return try await child.send(frame, id: request.id, timeout: timeout)
    }

    /// Kills the process and fails whatever waits on it.
    func terminate() {
        child.terminate()
    }

    /// Closes the worker's input, so it ends on its own, and waits for it briefly.
    func close() {
        child.close(grace: 0.5)
    }
}
