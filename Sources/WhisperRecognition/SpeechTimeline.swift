/// Where, in an utterance, the voice activity detector heard speech: its verdicts in order,
/// as runs of samples. Times are seconds on the utterance's own axis, from its first sample.
///
/// It lets a decode's words be checked against the audio: speech the detector heard where a
/// decode wrote no word was left out by the decode (`ClauseCommitter`).
public struct SpeechTimeline: Sendable, Equatable {
    /// Samples a second.
    public let sampleRate: Int
    /// Samples the timeline covers.
    public private(set) var count = 0
    /// Where each run of one verdict ends, in samples, and whether it is speech; consecutive
    /// runs differ.
    private var runs: [Run] = []

    private struct Run: Sendable, Equatable {
        var end: Int
        var speech: Bool
    }

    /// An empty timeline: no speech anywhere.
    public init(sampleRate: Int = 16_000) {
        self.sampleRate = sampleRate
    }

    /// Adds `samples` more samples with the detector's verdict on them.
    public mutating func append(_ samples: Int, speech: Bool) {
        guard samples > 0 else { return }
        count += samples
        if runs.last?.speech == speech {
            runs[runs.count - 1].end = count
        } else {
            runs.append(Run(end: count, speech: speech))
        }
    }

    /// Seconds of speech heard from `start` to `end` (clamped to the timeline; none when `end`
    /// is not after `start`).
    public func speech(from start: Double, to end: Double) -> Double {
        let (low, high) = (max(0, Int(start * Double(sampleRate))), min(count, Int(end * Double(sampleRate))))
        guard high > low else { return 0 }
        var heard = 0, runStart = 0
        for run in runs {
            defer { runStart = run.end }
            if run.end <= low { continue }
            if runStart >= high { break }
            if run.speech { heard += min(run.end, high) - max(runStart, low) }
        }
        return Double(heard) / Double(sampleRate)
    }
}
