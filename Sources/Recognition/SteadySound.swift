import Foundation

/// Sound whose loudness hardly changes over an utterance: hiss, hum, fan or engine noise, a
/// silent input. Speech rises and falls with its syllables and pauses; such sound does not.
///
/// The voice activity detector opens an utterance on energy alone, so steady noise and even
/// digital silence can open one about every second; each would cost Whisper a decode, and one
/// called silent a second decode in the full window. An utterance whose loudness spread
/// (`loudnessSpread`) is below `minimumSpread` is not decoded at all.
///
/// The spread is the 90th minus the 10th percentile of the energy of 30 ms frames, in dB.
/// `minimumSpread` lies between the spread of steady noise and that of speech in noise, away
/// from both (the figures: docs/recognition.md, "Steady sound").
package enum SteadySound {
    /// Samples per frame: 30 ms at 16 kHz.
    static let frameSamples = 480
    /// The least spread, in dB, of an utterance that is decoded.
    static let minimumSpread = 10.0
    /// Frames below which an utterance is always decoded: too short to judge.
    static let minimumFrames = 3

    /// The 90th minus the 10th percentile of the energy of `samples`' 30 ms frames, in dB;
    /// nil for fewer than `minimumFrames` frames. A silent frame counts as −120 dB.
    static func loudnessSpread(_ samples: [Int16]) -> Double? {
        let frames = samples.count / frameSamples
        guard frames >= minimumFrames else { return nil }
        let energies = (0..<frames).map { frame -> Double in
            var sum = 0.0
            for sample in samples[frame * frameSamples..<(frame + 1) * frameSamples] {
                let value = Double(sample) / 32768
                sum += value * value
            }
            return 10 * log10(sum / Double(frameSamples) + 1e-12)
        }.sorted()
        return energies[(frames - 1) * 9 / 10] - energies[(frames - 1) / 10]
    }

    /// Whether `samples` are steady sound, not to be decoded.
    package static func isSteady(_ samples: [Int16]) -> Bool {
        guard let spread = loudnessSpread(samples) else { return false }
        return spread < minimumSpread
    }
}
