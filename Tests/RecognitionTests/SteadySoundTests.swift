import Foundation
@testable import Recognition
import TestSupport
import Testing

/// Which utterances are steady sound, never decoded: noise and silence, not speech.
@Suite("Steady sound")
struct SteadySoundTests {
    /// Five seconds of a generated sound at 16 kHz.
    static func generated(_ sample: (Int, inout UInt64) -> Double) -> [Int16] {
        var state: UInt64 = 42
        return (0..<80_000).map { Int16(max(-32_768, min(32_767, sample($0, &state) * 32_768))) }
    }

    /// A uniform random value in −1…1.
    static func uniform(_ state: inout UInt64) -> Double {
        state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        return Double(state >> 11) / Double(1 << 53) * 2 - 1
    }

    static func noises() -> [(String, [Int16])] {
        var brown = 0.0
        return [
            ("digital silence", [Int16](repeating: 0, count: 80_000)),
            ("white noise", generated { _, state in 0.1 * uniform(&state) }),
            ("quiet white noise", generated { _, state in 0.002 * uniform(&state) }),
            ("brown noise", generated { _, state in
                brown = max(-1, min(1, 0.95 * brown + 0.1 * uniform(&state)))
                return 0.3 * brown
            }),
            ("100 Hz hum", generated { index, _ in 0.1 * sin(2 * Double.pi * 100 * Double(index) / 16_000) }),
        ]
    }

    @Test("noise, hum and digital silence are steady")
    func noiseIsSteady() {
        for (name, samples) in Self.noises() {
            let spread = SteadySound.loudnessSpread(samples)
            #expect(spread.map { $0 < SteadySound.minimumSpread - 3 } == true, "\(name): spread \(String(describing: spread)) dB")
            let steady = SteadySound.isSteady(samples)
            #expect(steady, "\(name)")
        }
    }

    @Test("human speech is not steady, clean and under loud steady noise")
    func speechIsNotSteady() throws {
        for name in ["goforward.raw", "numbers.raw", "librivox/sense_and_sensibility_01_austen_64kb-0870.wav"] {
            let speech = try AudioFileReader.read(Fixtures.recording(name)).samples
            var state: UInt64 = 7
            let level = sqrt(speech.reduce(0.0) { $0 + Double($1) * Double($1) } / Double(speech.count))
            // White noise 10 dB below the speech's level: louder than a quiet room.
            let noisy = speech.map { sample in
                Int16(max(-32_768, min(32_767, Double(sample) + level / sqrt(10) * sqrt(3) * Self.uniform(&state))))
            }
            for (label, samples) in [("clean", speech), ("10 dB SNR", noisy)] {
                let spread = SteadySound.loudnessSpread(samples)
                #expect(spread.map { $0 > SteadySound.minimumSpread + 3 } == true, "\(name), \(label): spread \(String(describing: spread)) dB")
                let steady = SteadySound.isSteady(samples)
                #expect(!steady, "\(name), \(label)")
            }
        }
    }

    @Test("an utterance too short to judge is decoded")
    func shortIsDecoded() {
        #expect(SteadySound.loudnessSpread([Int16](repeating: 0, count: 2 * 480)) == nil)
        #expect(!SteadySound.isSteady([Int16](repeating: 0, count: 2 * 480)))
        // A fifth of a second is judged: the detector ends utterances that short when a file ends.
        #expect(SteadySound.isSteady([Int16](repeating: 0, count: 3_200)))
    }
}
