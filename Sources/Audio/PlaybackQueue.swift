/// Samples enqueued for playback that the server has not asked for yet.
///
/// The server asks for audio in its write callback, about one target length
/// at a time; what it has not asked for waits here, so a cancel only has to
/// clear this queue and flush the server's short buffer.
struct PlaybackQueue {
    private var runs: [[Int16]] = []
    private var offset = 0

    /// Samples waiting.
    private(set) var sampleCount = 0

    /// Whether nothing is waiting.
    var isEmpty: Bool { sampleCount == 0 }

    /// Queues samples after the ones already waiting.
    mutating func append(_ samples: [Int16]) {
        guard !samples.isEmpty else { return }
        runs.append(samples)
        sampleCount += samples.count
    }

    /// Drops everything waiting.
    mutating func removeAll() {
        runs.removeAll()
        offset = 0
        sampleCount = 0
    }

    /// Removes up to `limit` samples from the front, handing them to `write` in contiguous
    /// runs; returns how many were handed over.
    @discardableResult
    mutating func dequeue(upTo limit: Int, into write: (UnsafeBufferPointer<Int16>) -> Void) -> Int {
        var handed = 0
        while handed < limit, let run = runs.first {
            let count = min(limit - handed, run.count - offset)
            run.withUnsafeBufferPointer { write(UnsafeBufferPointer(rebasing: $0[offset..<offset + count])) }
            handed += count
            offset += count
            if offset == run.count {
                runs.removeFirst()
                offset = 0
            }
        }
        sampleCount -= handed
        return handed
    }
}
