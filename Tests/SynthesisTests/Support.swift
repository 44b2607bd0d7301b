import Foundation
import ParleyCore
import Synthesis
import TestSupport

/// A synthesizer with the shipped locale and gender tables.
func makeSynthesizer(overrides: PronunciationOverrides = .none) throws -> ESpeakSynthesizer {
    try ESpeakSynthesizer(dataDirectories: [Fixtures.dataDirectory], overrides: overrides)
}

/// Everything one utterance produced.
struct Spoken {
    var events: [SynthesisEvent] = []

    var samples: [Int16] {
        events.flatMap { event -> [Int16] in
            if case let .audio(chunk) = event { return chunk.samples }
            return []
        }
    }

    var duration: Double { AudioFormat.synthesis.duration(ofSamples: samples.count) }

    var words: [Range<String.Index>] {
        events.compactMap { event in
            if case let .word(range) = event { return range }
            return nil
        }
    }
}

/// Speaks `utterance` to the end and collects its events.
func collect(_ synthesizer: ESpeakSynthesizer, _ utterance: Utterance) async throws -> Spoken {
    var spoken = Spoken()
    for try await event in synthesizer.speak(utterance) { spoken.events.append(event) }
    return spoken
}

/// Samples with leading and trailing near-silence removed, so durations compare speech only.
func trimmedSilence(_ samples: [Int16], threshold: Int16 = 300) -> ArraySlice<Int16> {
    guard let first = samples.firstIndex(where: { abs(Int($0)) > threshold }),
          let last = samples.lastIndex(where: { abs(Int($0)) > threshold }) else { return [] }
    return samples[first...last]
}

/// Median fundamental frequency of the voiced frames, by normalized autocorrelation (60–400 Hz).
func medianFundamental(_ samples: [Int16], sampleRate: Double = 22_050) -> Double {
    let frame = 1024, hop = 512
    let lags = Int(sampleRate / 400)...Int(sampleRate / 60)
    var estimates: [Double] = []
    var start = 0
    while start + frame + lags.upperBound < samples.count {
        let x = samples[start..<(start + frame + lags.upperBound)].map(Double.init)
        let energy = x[0..<frame].reduce(0) { $0 + $1 * $1 }
        if energy / Double(frame) > 1_000_000 {  // RMS above 1000: speech, not silence
            var best = (lag: 0, score: 0.0)
            for lag in lags {
                var sum = 0.0, shifted = 0.0
                for i in 0..<frame {
                    sum += x[i] * x[i + lag]
                    shifted += x[i + lag] * x[i + lag]
                }
                let score = sum / (energy * shifted).squareRoot()
                if score > best.score { best = (lag, score) }
            }
            if best.score > 0.6 { estimates.append(sampleRate / Double(best.lag)) }
        }
        start += hop
    }
    let sorted = estimates.sorted()
    return sorted.isEmpty ? 0 : sorted[sorted.count / 2]
}
