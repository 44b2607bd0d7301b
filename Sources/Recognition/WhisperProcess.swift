import Foundation
import Synchronization

/// Why a request to the Whisper worker got no answer.
enum WhisperWorkerFailure: Error, Sendable, Equatable, CustomStringConvertible {
    /// The worker process ended; `detail` is the end of what it wrote to stderr.
    case exited(status: Int32, detail: String)
    /// No answer within the time allowed.
    case hung(seconds: Double)
    /// An answer came for another request, or a frame could not be read.
    case outOfStep(String)
    /// The worker could not be started at all.
    case launch(String)

    var description: String {
        switch self {
        case let .exited(status, detail):
            "the Whisper worker ended (status \(status))\(detail.isEmpty ? "" : ": \(detail)")"
        case let .hung(seconds):
            "the Whisper worker gave no answer within \(Int(seconds)) seconds"
        case let .outOfStep(detail):
            "the Whisper worker answered out of step (\(detail))"
        case let .launch(detail):
            "the Whisper worker could not be started: \(detail)"
        }
    }
}

/// One running worker process and its pipes.
///
/// A dedicated thread reads response frames and hands each to the request
/// waiting for it, in order; writes go through one serial queue, so no Swift
/// task thread ever blocks on a pipe. Any failure — the process ending, a
/// timeout, an answer out of order — fails every waiting request and kills
/// the process: the owner starts a new one.
final class WhisperProcess: Sendable {
    private struct State {
        var ready: CheckedContinuation<WhisperReady, any Error>?
        var readyFrame: Result<WhisperReady, any Error>?
        var pending: [(id: Int, continuation: CheckedContinuation<Data, any Error>)] = []
        var failure: WhisperWorkerFailure?
        var stderrTail = ""
    }

    private let process: Process
    private let input: FileHandle
    private let writer = DispatchQueue(label: "parley.whisper.writer")
    private let state = Mutex(State())

    /// The process id, for tests and diagnostics.
    var pid: Int32 { process.processIdentifier }

    /// Starts `arguments[0]` with the rest as arguments.
    init(arguments: [String], environment: [String: String]? = nil) throws {
        Self.ignoreBrokenPipes
        let process = Process()
        process.executableURL = URL(fileURLWithPath: arguments[0])
        process.arguments = Array(arguments.dropFirst())
        if let environment { process.environment = environment }
        let stdin = Pipe(), stdout = Pipe(), stderr = Pipe()
        process.standardInput = stdin
        process.standardOutput = stdout
        process.standardError = stderr
        do {
            try process.run()
        } catch {
            throw WhisperWorkerFailure.launch("\(arguments[0]): \(error.localizedDescription)")
        }
        self.process = process
        input = stdin.fileHandleForWriting
        startThread(named: "parley.whisper.reader") { [self] in readFrames(stdout.fileHandleForReading) }
        startThread(named: "parley.whisper.stderr") { [self] in collectErrors(stderr.fileHandleForReading) }
    }

    /// Waits for the worker's first message, which says whether the model loaded.
    func ready(timeout: Double) async throws -> WhisperReady {
        let timer = failAfter(timeout)
        defer { timer.cancel() }
        return try await withCheckedThrowingContinuation { continuation in
            let buffered: Result<WhisperReady, any Error>? = state.withLock { state in
                if let frame = state.readyFrame { return frame }
                if let failure = state.failure { return .failure(failure) }
                state.ready = continuation
                return nil
            }
            if let buffered { continuation.resume(with: buffered) }
        }
    }

    /// Sends one request and waits for its answer frame's body, at most `timeout` seconds.
    func send(_ request: WhisperCall.Frame, features: [Float], timeout: Double) async throws -> Data {
        let frame = try WhisperFrames.request(request, payload: features)
        let timer = failAfter(timeout)
        defer { timer.cancel() }
        return try await withCheckedThrowingContinuation { continuation in
            let failure = state.withLock { state -> WhisperWorkerFailure? in
                if let failure = state.failure { return failure }
                state.pending.append((request.id, continuation))
                return nil
            }
            if let failure { return continuation.resume(throwing: failure) }
            writer.async { [self] in
                do { try input.write(contentsOf: frame) } catch { fail(.exited(status: -1, detail: "its input closed")) }
            }
        }
    }

    /// Kills the process and fails whatever waits on it.
    func terminate() {
        fail(.exited(status: -1, detail: "stopped"))
    }

    /// Closes the worker's input, so it ends on its own, and waits for it briefly.
    func close() {
        writer.sync { try? input.close() }
        for _ in 0..<50 where process.isRunning { usleep(10_000) }
        terminate()
    }

    // MARK: Failure

    /// Records `failure` once, fails every waiter with it, and kills the process.
    private func fail(_ failure: WhisperWorkerFailure) {
        let (ready, pending) = state.withLock { state in
            if state.failure == nil { state.failure = failure }
            let taken = (state.ready, state.pending.map(\.continuation))
            state.ready = nil
            state.pending = []
            if state.readyFrame == nil { state.readyFrame = .failure(state.failure!) }
            return taken
        }
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        ready?.resume(throwing: state.withLock { $0.failure! })
        for continuation in pending { continuation.resume(throwing: state.withLock { $0.failure! }) }
    }

    private func failAfter(_ seconds: Double) -> Task<Void, Never> {
        Task { [weak self] in
            try? await Task.sleep(for: .seconds(seconds))
            guard !Task.isCancelled else { return }
            self?.fail(.hung(seconds: seconds))
        }
    }

    // MARK: On the reader threads

    private func readFrames(_ output: FileHandle) {
        while let body = readFrame(output) {
            deliver(body)
        }
        process.waitUntilExit()
        let detail = state.withLock { $0.stderrTail }.split(separator: "\n").last.map(String.init) ?? ""
        fail(.exited(status: process.terminationStatus, detail: detail))
    }

    /// One response body, or nil at end of file or on a length that cannot be right.
    private func readFrame(_ output: FileHandle) -> Data? {
        guard let header = readExactly(4, from: output) else { return nil }
        let length = WhisperFrames.length(header)
        guard length <= WhisperFrames.maximumResponseBytes else {
            fail(.outOfStep("a frame of \(length) bytes"))
            return nil
        }
        return readExactly(length, from: output)
    }

    private func readExactly(_ count: Int, from handle: FileHandle) -> Data? {
        var data = Data()
        while data.count < count {
            guard let chunk = try? handle.read(upToCount: count - data.count), !chunk.isEmpty else { return nil }
            data.append(chunk)
        }
        return data
    }

    /// Hands a body to the ready waiter or to the oldest pending request.
    private func deliver(_ body: Data) {
        let decoder = JSONDecoder()
        if let ready = try? decoder.decode(WhisperReady.self, from: body), state.withLock({ $0.readyFrame == nil }) {
            let waiter = state.withLock { state in
                state.readyFrame = .success(ready)
                defer { state.ready = nil }
                return state.ready
            }
            waiter?.resume(returning: ready)
            return
        }
        guard let answer = try? decoder.decode(WhisperReplyID.self, from: body) else {
            return fail(.outOfStep("an answer that is not JSON"))
        }
        let waiter = state.withLock { state -> CheckedContinuation<Data, any Error>? in
            guard let first = state.pending.first, first.id == answer.id else { return nil }
            return state.pending.removeFirst().continuation
        }
        guard let waiter else {
            return fail(.outOfStep("an answer to request \(answer.id.map(String.init) ?? "none") that nobody waits for"))
        }
        waiter.resume(returning: body)
    }

    private func collectErrors(_ errors: FileHandle) {
        while let chunk = try? errors.read(upToCount: 4096), !chunk.isEmpty {
            let text = String(decoding: chunk, as: UTF8.self)
            state.withLock { state in state.stderrTail = String((state.stderrTail + text).suffix(4096)) }
        }
    }

    /// A write to a worker that died fails with EPIPE instead of ending Parley.
    private static let ignoreBrokenPipes: Void = { signal(SIGPIPE, SIG_IGN) }()

    private func startThread(named name: String, _ body: @escaping @Sendable () -> Void) {
        let thread = Thread(block: body)
        thread.name = name
        thread.start()
    }
}
