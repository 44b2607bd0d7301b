public import ParleyCore
import Synchronization

/// An audio sink that keeps every chunk in memory, for tests and for callers that want the samples.
public final class MemoryAudioSink: AudioSink {
    private let state = Mutex<(chunks: [PCMChunk], cancellations: Int)>(([], 0))

    /// Creates an empty sink.
    public init() {}

    /// Every chunk enqueued since the last cancellation, in order.
    public var chunks: [PCMChunk] { state.withLock { $0.chunks } }

    /// The samples of every chunk, joined.
    public var samples: [Int16] { chunks.flatMap(\.samples) }

    /// How many times playback was cancelled.
    public var cancellations: Int { state.withLock { $0.cancellations } }

    /// Keeps the chunk.
    public func enqueue(_ chunk: PCMChunk) async throws {
        state.withLock { $0.chunks.append(chunk) }
    }

    /// Nothing to wait for: memory plays instantly.
    public func drain() async throws {}

    /// Drops what was enqueued, as a speaker drops what it has not played.
    public func cancelPlayback() async {
        state.withLock { state in
            state.chunks.removeAll()
            state.cancellations += 1
        }
    }

    /// Nothing to release: the chunks stay readable.
    public func close() async {}
}
