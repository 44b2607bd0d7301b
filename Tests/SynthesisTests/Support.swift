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
