import Audio
import Foundation
import Logging
import ParleyCore
import ProcessHarness
import Synchronization

/// Records one source all the time and stamps every sample with the monotonic
/// clock, so sound on two taps (the microphone's monitor and the speaker's) can
/// be compared in time. Each chunk is stamped when it arrives: its last sample
/// was captured then, the others one sample period earlier each. Both taps go
/// through the same path, so that path's delay cancels in a difference.
final class MonitorTap: Sendable {
    private struct Stamped { var arrival: UInt64; var samples: [Int16] }
    private final class Recorded: Sendable { let chunks = Mutex<[Stamped]>([]) }

    private let session: AudioSession
    private let recorded = Recorded()
    private let reader = Mutex<Task<Void, Never>?>(nil)

    /// Opens a capture session on `source` (of `server` with `cookie`, or the default server)
    /// and starts recording.
    init(source: String, server: String? = nil, cookie: String? = nil) async throws {
        var logger = Logger(label: "parley.bench.dialogue")
        logger.logLevel = .warning
        var options = AudioSessionOptions(server: server, source: source, gatesCaptureDuringPlayback: false)
        options.cookie = try cookie.map { path throws(PulseCookieError) in try PulseCookie(readingFile: path) }
        session = AudioSession(options: options, logger: logger)
        try await session.open()
        try await session.startListening()
        let stream = session.capturedChunks
        let task = Task { [recorded] in
            for await chunk in stream {
                let stamped = Stamped(arrival: DispatchTime.now().uptimeNanoseconds, samples: chunk.samples)
                recorded.chunks.withLock { $0.append(stamped) }
            }
        }
        reader.withLock { $0 = task }
    }

    /// Forgets what was recorded so far.
    func reset() { recorded.chunks.withLock { $0.removeAll(keepingCapacity: true) } }

    /// The time (ns) of the last sample louder than `threshold`.
    func lastSound(threshold: Int16) -> UInt64? {
        recorded.chunks.withLock { chunks in
            for chunk in chunks.reversed() {
                if let index = chunk.samples.lastIndex(where: { abs(Int32($0)) > Int32(threshold) }) {
                    return Self.time(of: index, in: chunk)
                }
            }
            return nil
        }
    }

    /// The time (ns) of the first sample louder than `threshold` at or after `start`.
    func firstSound(after start: UInt64, threshold: Int16) -> UInt64? {
        recorded.chunks.withLock { chunks in
            for chunk in chunks where chunk.arrival >= start {
                for (index, sample) in chunk.samples.enumerated() where abs(Int32(sample)) > Int32(threshold) {
                    let time = Self.time(of: index, in: chunk)
                    if time >= start { return time }
                }
            }
            return nil
        }
    }

    /// Whether nothing louder than `threshold` arrived in the last `seconds`.
    func isQuiet(forLast seconds: Double, threshold: Int16) -> Bool {
        let since = DispatchTime.now().uptimeNanoseconds - UInt64(seconds * 1e9)
        return recorded.chunks.withLock { chunks in
            !chunks.contains { $0.arrival >= since && $0.samples.contains { abs(Int32($0)) > Int32(threshold) } }
        }
    }

    /// Stops recording and closes the session.
    func close() async {
        reader.withLock { $0?.cancel() }
        await session.close()
    }

    private static func time(of index: Int, in chunk: Stamped) -> UInt64 {
        let samplesAfter = UInt64(chunk.samples.count - 1 - index)
        return chunk.arrival - samplesAfter * 1_000_000_000 / 16_000
    }
}

extension NullSink {
    /// Loads a 16 kHz mono null sink named `parley_bench_<label>_<pid>` for the run.
    static func forBenchmark(label: String) throws -> NullSink {
        try NullSink(name: "parley_bench_\(label)_\(getpid())", format: NullSink.format())
    }
}
