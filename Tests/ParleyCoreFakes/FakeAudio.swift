public import ParleyCore
import Synchronization

/// An in-memory audio source and sink: tests feed "captured" chunks, which
/// are delivered only while the gate is open, and see what was played.
/// Every call is logged in order, so tests can check the gating.
public final class FakeAudio: AudioSource, AudioSink {
    public let captureFormat = AudioFormat.recognition
    public let capturedChunks: AsyncStream<PCMChunk>
    private let chunkContinuation: AsyncStream<PCMChunk>.Continuation
    private let state = Mutex(State())
    private let playbackHold = CallHold()

    private struct State {
        var gateOpen = false
        var calls: [String] = []
        var played: [PCMChunk] = []
        var failures: [String: FakeFailure] = [:]
    }

    /// Creates a fake with the gate closed.
    public init() {
        (capturedChunks, chunkContinuation) = AsyncStream.makeStream(of: PCMChunk.self)
    }

    /// The calls made so far: `startListening`, `stopListening`, `enqueue`, `drain`, `drained`,
    /// `cancelPlayback`, `pausePlayback`, `resumePlayback`, `close`.
    public var log: [String] { state.withLock { $0.calls } }
    /// Whether the capture gate is open.
    public var isListening: Bool { state.withLock { $0.gateOpen } }
    /// Every chunk enqueued for playback.
    public var playedChunks: [PCMChunk] { state.withLock { $0.played } }
    /// How many times a drain has finished.
    public var drainCount: Int { log.filter { $0 == "drained" }.count }

    /// Makes `call` (`startListening`, `enqueue`, `drain`) throw `failure` from now on; nil heals it.
    public func fail(_ call: String, with failure: FakeFailure?) { state.withLock { $0.failures[call] = failure } }

    /// While holding, `drain()` waits until `releasePlayback()` or `cancelPlayback()`.
    public func holdPlayback(_ hold: Bool) { playbackHold.set(hold) }

    /// Lets every waiting `drain()` return.
    public func releasePlayback() { playbackHold.release() }

    /// "Captures" a chunk: delivered if the gate is open; returns whether it was.
    @discardableResult
    public func feed(_ chunk: PCMChunk = FakeAudio.speechChunk) -> Bool {
        guard isListening else { return false }
        chunkContinuation.yield(chunk)
        return true
    }

    /// 100 ms of a steady tone at a quarter of full scale.
    public static let speechChunk = PCMChunk(format: .recognition, samples: Array(repeating: 8192, count: 1600))

    /// `speechChunk` as an echo guard marks a person speaking over playback.
    public static let personChunk = PCMChunk(format: .recognition, samples: speechChunk.samples, echo: .person)

    /// `speechChunk` as an echo guard marks the playback's own echo.
    public static let echoChunk = PCMChunk(format: .recognition, samples: speechChunk.samples, echo: .echo)

    public func startListening() async throws {
        try record("startListening")
        state.withLock { $0.gateOpen = true }
    }

    public func stopListening() async {
        state.withLock { $0.gateOpen = false; $0.calls.append("stopListening") }
    }

    public func enqueue(_ chunk: PCMChunk) async throws {
        try record("enqueue")
        state.withLock { $0.played.append(chunk) }
    }

    public func drain() async throws {
        try record("drain")
        await playbackHold.pass()
        state.withLock { $0.calls.append("drained") }
    }

    public func cancelPlayback() async {
        state.withLock { $0.calls.append("cancelPlayback") }
        releasePlayback()
    }

    public func pausePlayback() async {
        state.withLock { $0.calls.append("pausePlayback") }
    }

    public func resumePlayback() async {
        state.withLock { $0.calls.append("resumePlayback") }
    }

    public func close() async {
        state.withLock { $0.calls.append("close") }
    }

    private func record(_ call: String) throws {
        try state.withLock { state in
            state.calls.append(call)
            if let failure = state.failures[call] { throw failure }
        }
    }
}
