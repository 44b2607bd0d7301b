public import Foundation
import Synchronization

/// A child that answers requests with length-prefixed frames (`LengthFrames`), each answer
/// naming the request it answers: the Whisper worker.
///
/// Requests and answers are opaque bytes here; the owner builds each request (in whatever
/// framing the child reads) and says how to find the request id in an answer. The first
/// frame the child writes is its greeting (`greeting(timeout:)`); every later one answers
/// the oldest request still waiting, or the child is out of step.
///
/// One reader thread owns the output and error pipes: it reads frames and stderr in one
/// `poll` loop, hands each answer to the request that waits for it, and reaps the child when
/// its output ends. Requests are written on one serial queue, which alone writes and closes
/// the input, so no Swift task thread ever blocks on a pipe. Any failure (the child ending,
/// a timeout, an answer out of step) fails every waiting request and kills the child's
/// group: the owner starts a new one.
public final class FramedChild: Sendable {
    /// The process, its pipes and its group.
    public let process: SpawnedProcess
    private let maximumFrameBytes: Int
    private let answerID: @Sendable (Data) -> Int?
    private let writer: DispatchQueue
    private let state = Mutex(State())

    private struct State {
        var greetingWaiter: CheckedContinuation<Data, any Error>?
        var greeting: Result<Data, ChildProcessFailure>?
        var pending: [(id: Int, continuation: CheckedContinuation<Data, any Error>)] = []
        var failure: ChildProcessFailure?
        var stderr = StderrTail(limit: 4096)
    }

    /// Starts `arguments` (see `SpawnedProcess`). A frame longer than `maximumFrameBytes` puts
    /// the child out of step; `answerID` reads the request id from an answer (nil: none).
    public init(_ arguments: [String], environment: [String: String]? = nil, name: String,
                maximumFrameBytes: Int, answerID: @escaping @Sendable (Data) -> Int?) throws {
        process = try SpawnedProcess(arguments, environment: environment, name: name)
        self.maximumFrameBytes = maximumFrameBytes
        self.answerID = answerID
        writer = DispatchQueue(label: "parley.child.\(process.pid).writer")
        PipeIO.setNonBlocking(process.errors)
        let reader = Thread { [self] in readUntilEnd() }
        reader.name = "parley.child.\(process.pid).reader"
        reader.start()
    }

    /// The child's pid (also its process group).
    public var pid: Int32 { process.pid }

    /// The child's first frame, waited for at most `timeout` seconds. Throws `ChildProcessFailure`.
    public func greeting(timeout: Double) async throws -> Data {
        let timer = failAfter(timeout)
        defer { timer.cancel() }
        return try await withCheckedThrowingContinuation { continuation in
            let buffered = state.withLock { state -> Result<Data, ChildProcessFailure>? in
                if let greeting = state.greeting { return greeting }
                state.greetingWaiter = continuation
                return nil
            }
            if let buffered { continuation.resume(with: buffered.mapError { $0 as any Error }) }
        }
    }

    /// Writes `request` and waits for the answer that names `id`, at most `timeout` seconds.
    /// Throws `ChildProcessFailure`; after a failure the child is gone and every request fails.
    public func send(_ request: Data, id: Int, timeout: Double) async throws -> Data {
        let timer = failAfter(timeout)
        defer { timer.cancel() }
        return try await withCheckedThrowingContinuation { continuation in
            // Queued under the lock, so requests are written in the order they wait for answers.
            let failure = state.withLock { state -> ChildProcessFailure? in
                if let failure = state.failure { return failure }
                state.pending.append((id, continuation))
                writer.async { [self] in write(request) }
                return nil
            }
            if let failure { continuation.resume(throwing: failure) }
        }
    }

    /// On the writer queue: writes all of `request`, or fails the child when it no longer reads.
    private func write(_ request: Data) {
        var written = 0
        guard !process.isInputClosed, PipeIO.write(process.input, [UInt8](request), written: &written) else {
            return fail(.exited(status: process.reapIfExited(), stderrTail: "it no longer reads its input"))
        }
    }

    /// Kills the child's group and fails whatever waits on it.
    public func terminate() {
        fail(.exited(status: nil, stderrTail: ""))
    }

    /// Closes the child's input, so it ends on its own, waits up to `grace` seconds for it to
    /// end, then kills what is left.
    public func close(grace: Double = 0.5) {
        writer.async { [process] in process.closeInput() }
        let deadline = DispatchTime.now().uptimeNanoseconds + UInt64(grace * 1e9)
        while process.reapIfExited() == nil && DispatchTime.now().uptimeNanoseconds < deadline { usleep(10_000) }
        terminate()
    }

    // MARK: Failure

    /// Records `kind` as the failure (the first one stays), fails every waiter with it, and
    /// kills the child's group.
    private func fail(_ kind: ChildProcessFailure.Kind) {
        let (waiters, failure) = state.withLock { state in
            let failure = state.failure ?? ChildProcessFailure(process.name, kind)
            state.failure = failure
            if state.greeting == nil { state.greeting = .failure(failure) }
            let waiters = [state.greetingWaiter].compactMap { $0 } + state.pending.map(\.continuation)
            state.greetingWaiter = nil
            state.pending = []
            return (waiters, failure)
        }
        process.killGroup()
        for waiter in waiters { waiter.resume(throwing: failure) }
    }

    private func failAfter(_ seconds: Double) -> Task<Void, Never> {
        Task { [weak self] in
            try? await Task.sleep(for: .seconds(seconds))
            guard !Task.isCancelled else { return }
            self?.fail(.timedOut(seconds: seconds))
        }
    }

    // MARK: On the reader thread

    /// Reads frames and stderr until the output ends, then reaps the child and fails what still waits.
    private func readUntilEnd() {
        var buffer: [UInt8] = []
        var errorsOpen = true
        reading: while true {
            var fds = [pollfd(fd: process.output, events: Int16(POLLIN), revents: 0)]
            if errorsOpen { fds.append(pollfd(fd: process.errors, events: Int16(POLLIN), revents: 0)) }
            guard PipeIO.poll(&fds, milliseconds: -1) else { break }
            if errorsOpen, fds.count > 1, fds[1].revents != 0 { errorsOpen = readErrors() != .end }
            guard fds[0].revents != 0 else { continue }
            switch PipeIO.read(process.output, into: &buffer) {
            case .end, .failed: break reading
            case .bytes, .nothing: guard deliverFrames(from: &buffer) else { break reading }
            }
        }
        // A child that closed its output is given a moment to end with a status of its own.
        for _ in 0..<100 where process.reapIfExited() == nil { usleep(10_000) }
        while errorsOpen, case .bytes = readErrors() {}
        fail(.exited(status: process.reapIfExited(), stderrTail: state.withLock { $0.stderr.lastLine }))
        process.waitForExit()
        writer.async { [process] in process.closeInput() }
        process.closeOutputs()
    }

    /// Delivers every whole frame in `buffer`; false once the child is out of step.
    private func deliverFrames(from buffer: inout [UInt8]) -> Bool {
        while true {
            let body: Data?
            do {
                body = try LengthFrames.take(from: &buffer, limit: maximumFrameBytes)
            } catch {
                fail(.outOfStep("a frame of \(error.length) bytes, over the limit of \(maximumFrameBytes)"))
                return false
            }
            guard let body else { return true }
            guard deliver(body) else { return false }
        }
    }

    /// Hands `body` to the greeting's waiter or to the oldest request, when it names that
    /// request; false (and the child failed) when it answers nobody waiting.
    private func deliver(_ body: Data) -> Bool {
        let greeted = state.withLock { state -> (Bool, CheckedContinuation<Data, any Error>?) in
            guard state.greeting == nil else { return (false, nil) }
            state.greeting = .success(body)
            defer { state.greetingWaiter = nil }
            return (true, state.greetingWaiter)
        }
        if greeted.0 {
            greeted.1?.resume(returning: body)
            return true
        }
        let id = answerID(body)
        let waiter = state.withLock { state -> CheckedContinuation<Data, any Error>? in
            guard let id, let first = state.pending.first, first.id == id else { return nil }
            return state.pending.removeFirst().continuation
        }
        guard let waiter else {
            fail(.outOfStep(id.map { "an answer to request \($0) that nobody waits for" } ?? "an answer that names no request"))
            return false
        }
        waiter.resume(returning: body)
        return true
    }

    /// Reads what waits on stderr into the tail; `.end` once stderr cannot be read any more.
    private func readErrors() -> PipeIO.Read {
        var chunk: [UInt8] = []
        let read = PipeIO.read(process.errors, into: &chunk)
        switch read {
        case .bytes: state.withLock { $0.stderr.append(chunk) }
        case .nothing: break
        case .end, .failed: return .end
        }
        return read
    }
}
