import ParleyCore

/// One utterance being synthesized: turns espeak's callbacks into `SynthesisEvent`s.
///
/// Lives on the engine thread for the length of one job.
final class SynthesisRun: SynthesisReceiver {
    private let channel: EventChannel
    private let text: String
    private let amplitude: Double
    /// The String index of every Unicode scalar of `text`, plus its end index.
    private let scalarIndices: [String.Index]
    /// The sentence espeak is reading now.
    var sentence: SpokenSentence?
    /// The last word reported: a phrase override reads as several phoneme words but is one word of the text.
    private var lastWord: Range<Int>?

    init(channel: EventChannel, text: String, amplitude: Double) {
        self.channel = channel
        self.text = text
        self.amplitude = amplitude
        scalarIndices = Array(text.unicodeScalars.indices) + [text.endIndex]
    }

    /// Whether the reader stopped the utterance.
    var isCancelled: Bool { channel.isCancelled }

    func receive(samples: UnsafeBufferPointer<Int16>, events: [EngineEvent]) -> Bool {
        guard !channel.isCancelled else { return true }
        // espeak also reports zero-length "words" at clause boundaries: not words.
        for case let .word(position, length) in events where length > 0 {
            if let range = sentence?.originalRange(position: position, length: length), range != lastWord {
                lastWord = range
                channel.send(.word(scalarIndices[range.lowerBound]..<scalarIndices[range.upperBound]))
            }
        }
        if !samples.isEmpty { channel.send(.audio(PCMChunk(format: .synthesis, samples: scaled(samples)))) }
        return channel.isCancelled
    }

    /// Sends `count` samples of silence in chunks of at most 50 ms, stopping early when cancelled.
    func sendSilence(_ count: Int) {
        let chunk = AudioFormat.synthesis.sampleCount(forSeconds: 0.05)
        var remaining = count
        while remaining > 0, !channel.isCancelled {
            let size = min(chunk, remaining)
            channel.send(.audio(PCMChunk(format: .synthesis, samples: Array(repeating: 0, count: size))))
            remaining -= size
        }
    }

    private func scaled(_ samples: UnsafeBufferPointer<Int16>) -> [Int16] {
        guard amplitude != 1 else { return Array(samples) }
        return samples.map { Int16((Double($0) * amplitude).rounded()) }
    }
}
