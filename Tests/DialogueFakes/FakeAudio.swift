public import ParleyCore
import Foundation

/// An in-memory audio source and sink: tests feed "captured" chunks, which
/// are delivered only while the gate is open, and see what was played.
/// Every call is logged in order, so tests can check the gating.
public final class FakeAudio: AudioSource, AudioSink, @unchecked Sendable {
    public let captureFormat = AudioFormat.recognition
    public let capturedChunks: AsyncStream<PCMChunk>
    private let chunkContinuation: AsyncStream<PCMChunk>.Continuation
    private let lock = NSLock()
    private var gateOpen = false
    private var calls: [String] = []
    private var played: [PCMChunk] = []
    private var drainWaiters: [CheckedContinuation<Void, Never>] = []
    private var failures: [String: FakeFailure] = [:]
    private var holding = false

    /// Creates a fake with the gate closed.
    public init() {
        (capturedChunks, chunkContinuation) = AsyncStream.makeStream(of: PCMChunk.self)
    }

    /// The calls made so far: `startListening`, `stopListening`, `enqueue`, `drain`, `drained`, `cancelPlayback`, `close`.
    public var log: [String] { locked { calls } }
    /// Whether the capture gate is open.
    public var isListening: Bool { locked { gateOpen } }
    /// Every chunk enqueued for playback.
    public var playedChunks: [PCMChunk] { locked { played } }

    /// Makes `call` (`startListening`, `enqueue`, `drain`) throw `failure` from now on; nil heals it.
    public func fail(_ call: String, with failure: FakeFailure?) { locked { failures[call] = failure } }

    /// While holding, `drain()` waits until `releasePlayback()` or `cancelPlayback()`.
    public func holdPlayback(_ hold: Bool) { locked { holding = hold } }

    /// Lets every waiting `drain()` return.
    public func releasePlayback() {
        let waiters = locked { () -> [CheckedContinuation<Void, Never>] in
            holding = false
            defer { drainWaiters = [] }
            return drainWaiters
        }
        waiters.forEach { $0.resume() }
    }

    /// "Captures" a chunk: delivered if the gate is open; returns whether it was.
    @discardableResult
    public func feed(_ chunk: PCMChunk = FakeAudio.speechChunk) -> Bool {
        guard isListening else { return false }
        chunkContinuation.yield(chunk)
        return true
    }

    /// 100 ms of a steady tone at a quarter of full scale.
    public static let speechChunk = PCMChunk(format: .recognition, samples: Array(repeating: 8192, count: 1600))

    public func startListening() async throws {
        try record("startListening")
        locked { gateOpen = true }
    }

    public func stopListening() async {
        locked { gateOpen = false; calls.append("stopListening") }
    }

    public func enqueue(_ chunk: PCMChunk) async throws {
        try record("enqueue")
        locked { played.append(chunk) }
    }

    public func drain() async throws {
        try record("drain")
        let mustWait = locked { holding }
        if mustWait {
            await withCheckedContinuation { continuation in
                let stillHolding = locked { () -> Bool in
                    if holding { drainWaiters.append(continuation) }
                    return holding
                }
                if !stillHolding { continuation.resume() }
            }
        }
        locked { calls.append("drained") }
    }

    public func cancelPlayback() async {
        locked { calls.append("cancelPlayback") }
        releasePlayback()
    }

    public func close() async {
        locked { calls.append("close") }
    }

    private func record(_ call: String) throws {
        try locked {
            calls.append(call)
            if let failure = failures[call] { throw failure }
        }
    }

    private func locked<T>(_ body: () throws -> T) rethrows -> T {
        lock.lock()
        defer { lock.unlock() }
        return try body()
    }
}
