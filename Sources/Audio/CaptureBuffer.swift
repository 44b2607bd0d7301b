import ParleyCore
import Synchronization

/// Captured chunks on their way from the mainloop thread to one consumer.
///
/// Bounded by a number of samples: when the consumer stalls, the oldest chunks
/// are dropped and counted, and `push` never waits, so the PulseAudio mainloop
/// thread is never blocked by a slow consumer. The drops are reported once the
/// consumer comes back (or the buffer is cleared), as one count.
final class CaptureBuffer: Sendable {
    private struct State {
        var chunks: [PCMChunk] = []
        var head = 0
        var sampleCount = 0
        var unreportedDrops = 0
        var totalDrops = 0
        var waiter: CheckedContinuation<PCMChunk?, Never>?
        var finished = false

        var isEmpty: Bool { head == chunks.count }

        mutating func append(_ chunk: PCMChunk) {
            chunks.append(chunk)
            sampleCount += chunk.samples.count
        }

        mutating func removeFirst() -> PCMChunk {
            let chunk = chunks[head]
            head += 1
            sampleCount -= chunk.samples.count
            if head > 64 && head * 2 > chunks.count {
                chunks.removeFirst(head)
                head = 0
            }
            return chunk
        }

        mutating func takeDrops() -> Int {
            defer { unreportedDrops = 0 }
            return unreportedDrops
        }

        mutating func removeAll() -> Int {
            let count = chunks.count - head
            chunks.removeAll(keepingCapacity: true)
            head = 0
            sampleCount = 0
            return count
        }
    }

    /// Most samples held before the oldest chunk is dropped.
    let capacity: Int
    private let state = Mutex(State())
    private let reportOverrun: @Sendable (Int) -> Void

    /// Creates a buffer of `capacity` samples; `reportOverrun` hears how many chunks were dropped.
    init(capacity: Int, reportOverrun: @escaping @Sendable (Int) -> Void) {
        precondition(capacity > 0, "a capture buffer needs room for samples")
        self.capacity = capacity
        self.reportOverrun = reportOverrun
    }

    /// Chunks dropped for a slow consumer since the buffer was created.
    var droppedChunks: Int { state.withLock { $0.totalDrops } }

    /// Hands a chunk to the waiting consumer or queues it, dropping the oldest queued
    /// chunks when full. Never waits.
    func push(_ chunk: PCMChunk) {
        let waiter: CheckedContinuation<PCMChunk?, Never>? = state.withLock { state in
            guard !state.finished else { return nil }
            if let waiter = state.waiter {
                state.waiter = nil
                return waiter
            }
            while !state.isEmpty && state.sampleCount + chunk.samples.count > capacity {
                _ = state.removeFirst()
                state.unreportedDrops += 1
                state.totalDrops += 1
            }
            state.append(chunk)
            return nil
        }
        waiter?.resume(returning: chunk)
    }

    /// Drops everything queued (not an overrun: the consumer asked for it).
    func clear() {
        let drops = state.withLock { state in
            _ = state.removeAll()
            return state.takeDrops()
        }
        if drops > 0 { reportOverrun(drops) }
    }

    /// Ends the sequence: the consumer gets what is queued, then nil.
    func finish() {
        let waiter = state.withLock { state in
            state.finished = true
            defer { state.waiter = nil }
            return state.waiter
        }
        waiter?.resume(returning: nil)
    }

    /// The next chunk, waiting for one; nil once finished and empty, or when the task is cancelled.
    func next() async -> PCMChunk? {
        let chunk = await withTaskCancellationHandler {
            await waitForChunk()
        } onCancel: {
            let waiter = state.withLock { state in
                defer { state.waiter = nil }
                return state.waiter
            }
            waiter?.resume(returning: nil)
        }
        let drops = state.withLock { $0.takeDrops() }
        if drops > 0 { reportOverrun(drops) }
        return chunk
    }

    private func waitForChunk() async -> PCMChunk? {
        await withCheckedContinuation { (continuation: CheckedContinuation<PCMChunk?, Never>) in
            let ready: PCMChunk?? = state.withLock { state in
                if !state.isEmpty { return .some(state.removeFirst()) }
                if state.finished || Task.isCancelled { return .some(nil) }
                precondition(state.waiter == nil, "captured audio has a single consumer")
                state.waiter = continuation
                return .none
            }
            if let ready { continuation.resume(returning: ready) }
        }
    }
}
