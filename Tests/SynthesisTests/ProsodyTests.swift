import Testing
import ParleyCore
@testable import Synthesis

@Suite("Rate, pitch, volume and delays, measured in the audio espeak produces")
struct ProsodyTests {
    static let sentence = "The quick brown fox jumps over the lazy dog, and then it runs across the wide green field."

    func speechDuration(rate: Double) async throws -> Double {
        let synthesizer = try makeSynthesizer()
        let spoken = try await collect(synthesizer, Utterance(text: Self.sentence, voice: .identifier("en-us"), rate: rate))
        return AudioFormat.synthesis.duration(ofSamples: trimmedSilence(spoken.samples).count)
    }

    @Test("rate 0.25 takes about twice as long as 0.5, and 0.75 about 2.5 times less")
    func durationFollowsRate() async throws {
        let normal = try await speechDuration(rate: 0.5)
        let slow = try await speechDuration(rate: 0.25)
        let fast = try await speechDuration(rate: 0.75)
        #expect((1.6...2.4).contains(slow / normal), "slow/normal = \(slow / normal)")
        #expect((2.0...3.1).contains(normal / fast), "normal/fast = \(normal / fast)")
    }

    @Test("the rate scale maps 0.5 to 175 words per minute and clamps at espeak's floor")
    func rateScale() {
        #expect(RateScale.wordsPerMinute(for: 0.5) == 175)
        #expect(RateScale.wordsPerMinute(for: 0.25) == 88)
        #expect(RateScale.wordsPerMinute(for: 1) == 700)
        #expect(RateScale.wordsPerMinute(for: 0.1) == 80)
        #expect(RateScale.isClamped(0.1) && !RateScale.isClamped(0.25))
    }

    @Test("volume scales the peak amplitude")
    func volumeChangesPeak() async throws {
        let synthesizer = try makeSynthesizer()
        let full = try await collect(synthesizer, Utterance(text: "Hello there.", voice: .identifier("en-us"), volume: 1))
        let half = try await collect(synthesizer, Utterance(text: "Hello there.", voice: .identifier("en-us"), volume: 0.5))
        let silent = try await collect(synthesizer, Utterance(text: "Hello there.", voice: .identifier("en-us"), volume: 0))
        let ratio = AudioLevel(measuring: half.samples).peak / AudioLevel(measuring: full.samples).peak
        #expect(AudioLevel(measuring: full.samples).peak > 0.1)
        #expect((0.45...0.55).contains(ratio), "peak ratio \(ratio)")
        #expect(AudioLevel(measuring: silent.samples).peak == 0)
    }

    @Test("the pitch multiplier changes the measured fundamental frequency")
    func pitchChangesFundamental() async throws {
        let synthesizer = try makeSynthesizer()
        let text = "Hello, how are you today? I am very well, thank you."
        var fundamentals: [Double: Double] = [:]
        for multiplier in [0.5, 1.0, 2.0] {
            let spoken = try await collect(synthesizer, Utterance(text: text, voice: .identifier("en-us"), pitchMultiplier: multiplier))
            fundamentals[multiplier] = medianFundamental(spoken.samples)
        }
        let low = fundamentals[0.5]!, normal = fundamentals[1.0]!, high = fundamentals[2.0]!
        #expect(normal > 70 && normal < 200, "normal F0 \(normal)")
        #expect((1.5...2.5).contains(high / normal), "high/normal \(high / normal)")
        // The voice's intonation range does not scale with its base pitch, so lowering
        // the base by half lowers the median a little less.
        #expect((1.25...2.5).contains(normal / low), "normal/low \(normal / low)")
    }

    @Test("pre- and post-utterance delays add that much silence")
    func delays() async throws {
        let synthesizer = try makeSynthesizer()
        let plain = try await collect(synthesizer, Utterance(text: "Yes.", voice: .identifier("en-us")))
        let delayed = try await collect(synthesizer, Utterance(text: "Yes.", voice: .identifier("en-us"),
                                                               preUtteranceDelay: 0.5, postUtteranceDelay: 1))
        // espeak's own output varies by a few milliseconds from run to run, so the
        // silence is measured at the ends rather than as a difference in length.
        func leadingZeros(_ samples: [Int16]) -> Int { samples.firstIndex { $0 != 0 } ?? samples.count }
        func trailingZeros(_ samples: [Int16]) -> Int { leadingZeros(samples.reversed()) }
        #expect(leadingZeros(plain.samples) < 11_025 && trailingZeros(plain.samples) < 22_050)
        #expect(leadingZeros(delayed.samples) >= 11_025 && trailingZeros(delayed.samples) >= 22_050)
        #expect(delayed.samples.count - plain.samples.count > 33_075 - 2_205)
    }

    @Test("a setting out of range fails with its name and range", arguments: [
        (Utterance(text: "x", voice: .identifier("en-us"), rate: 1.5), "rate 1.5 is out of range; use a value from 0 to 1"),
        (Utterance(text: "x", voice: .identifier("en-us"), pitchMultiplier: 3), "pitch multiplier 3 is out of range; use a value from 0.5 to 2"),
        (Utterance(text: "x", voice: .identifier("en-us"), volume: -0.1), "volume -0.1 is out of range; use a value from 0 to 1"),
        (Utterance(text: "x", voice: .identifier("en-us"), preUtteranceDelay: .nan), "pre-utterance delay nan is out of range; use a value from 0 to 60"),
    ])
    func outOfRange(utterance: Utterance, message: String) async throws {
        let synthesizer = try makeSynthesizer()
        await #expect {
            _ = try await collect(synthesizer, utterance)
        } throws: { error in
            String(describing: error) == message
        }
    }
}
