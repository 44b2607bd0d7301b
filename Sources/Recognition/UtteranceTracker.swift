/// Follows one utterance through the voice activity detector's verdicts:
/// when speech starts, when trailing silence ends it, and the two limits
/// (no speech within the start timeout, speech longer than the maximum).
///
/// Pure bookkeeping over sample counts, so it is exact for files fed faster
/// than real time and testable without a decoder.
package struct UtteranceTracker: Sendable, Equatable {
    /// What the latest verdict changed.
    package enum Transition: Sendable, Equatable {
        case none, started, ended, timedOut, tooLong
    }

    /// Samples per second of the audio counted.
    package let sampleRate: Int
    /// Seconds to wait for speech to start; nil waits forever.
    package let startTimeout: Double?
    /// Longest speech, in seconds.
    package let maximumDuration: Double

    /// Samples seen since the request began.
    package private(set) var position = 0
    /// Where speech was first detected, in samples since the request began.
    package private(set) var speechStart: Int?

    /// Creates a tracker for audio at `sampleRate`.
    package init(sampleRate: Int, startTimeout: Double?, maximumDuration: Double) {
        self.sampleRate = sampleRate
        self.startTimeout = startTimeout
        self.maximumDuration = maximumDuration
    }

    /// Counts `samples` more audio after which the detector says `inSpeech`.
    package mutating func advance(by samples: Int, inSpeech: Bool) -> Transition {
        position += samples
        guard let speechStart else {
            if inSpeech {
                speechStart = position
                return .started
            }
            if let startTimeout, seconds(position) >= startTimeout { return .timedOut }
            return .none
        }
        if !inSpeech { return .ended }
        return seconds(position - speechStart) > maximumDuration ? .tooLong : .none
    }

    /// Whether speech has started.
    package var hasSpeech: Bool { speechStart != nil }

    /// `samples` as seconds.
    package func seconds(_ samples: Int) -> Double { Double(samples) / Double(sampleRate) }
}
