import Foundation
import Locales
@testable import WhisperRecognition
import TestSupport
import Testing

/// Whisper's log-mel features computed in Swift, against faster-whisper's own `FeatureExtractor`
/// run by the Whisper environment's Python, under each set of SIMD kernels numpy can pick on
/// this machine's processor family.
@Suite("Whisper features")
struct WhisperFeaturesTests {
    static let python = "\(DataDirectories.personalData())/whisper-env/bin/python3"

    /// The kernels numpy dispatches to: its own choice for this processor, and what it does on
    /// processors without AVX-512, and without AVX2 and FMA either (`NPY_DISABLE_CPU_FEATURES`;
    /// names of features the processor lacks are ignored).
    enum NumpyKernels: String, CaseIterable, CustomTestStringConvertible, Sendable {
        case chosen = ""
        case withoutAVX512 = "AVX512_ICL AVX512_SPR X86_V4"
        case withoutAVX2 = "AVX512_ICL AVX512_SPR X86_V4 X86_V3"

        var testDescription: String { self == .chosen ? "numpy's own kernels" : "NPY_DISABLE_CPU_FEATURES=\(rawValue)" }
    }

    /// The largest difference allowed between a Swift and a faster-whisper feature value.
    /// Measured on goforward.raw (with 160 and 16,000 trailing zeros), the 128-band clip and
    /// tiny inputs: 2.4e-7 (two float32 steps of a value near 1) with numpy's AVX-512 kernels,
    /// 1.2e-7 with AVX2 and with neither; half of the values differ with AVX-512, 7 % without.
    /// Feature values span about −1.5 to 1.5. The tolerance is four times the largest
    /// difference seen, for kernels not seen here; the readings' stability under larger
    /// moves is measured by `parley-bench stability` (BENCHMARKS.md).
    static let tolerance: Float = 1e-6
    /// The mean absolute difference allowed: the differences are last-bit rounding, never a
    /// bias (measured: at most 5.3e-8 on speech, 2.4e-7 on all-zero input, where every value
    /// is the floor and numpy's AVX-512 `log10` differs from ours by two steps). A wrong
    /// window, filterbank or padding moves the mean by 1e-3 or more.
    static let meanTolerance = 5e-7

    /// faster-whisper's features of `samples` (read as faster-whisper reads 16-bit PCM, / 32768)
    /// with `padding` trailing zeros, computed with `kernels`: the frame count and the values,
    /// band by band.
    static func reference(_ samples: [Int16], mels: Int, padding: Int,
                          kernels: NumpyKernels) throws -> (frames: Int, values: [Float]) {
        let directory = try Fixtures.temporaryDirectory("parley-features")
        defer { try? FileManager.default.removeItem(at: directory) }
        let input = directory.appendingPathComponent("samples.raw"), output = directory.appendingPathComponent("features.f32")
        try samples.withUnsafeBufferPointer { Data(buffer: $0) }.write(to: input)
        let script = """
            import sys
            import numpy as np
            from faster_whisper.feature_extractor import FeatureExtractor
            audio = np.fromfile(sys.argv[1], dtype="<i2").astype(np.float32) / 32768.0
            features = FeatureExtractor(feature_size=int(sys.argv[2]))(audio, padding=int(sys.argv[3]))
            features.astype("<f4").tofile(sys.argv[4])
            print(features.shape[0], features.shape[1])
            """
        var environment = ProcessInfo.processInfo.environment
        environment["OPENBLAS_NUM_THREADS"] = "1"
        environment["NPY_DISABLE_CPU_FEATURES"] = kernels.rawValue
        let run = try ProcessRunner.run([python, "-c", script, input.path, String(mels), String(padding), output.path],
                                        environment: environment, timeout: 120)
        guard run.status == 0 else { throw ProcessRunner.Failure(message: "faster-whisper features failed: \(run.stderr)") }
        let shape = run.stdout.split(whereSeparator: \.isWhitespace).compactMap { Int($0) }
        try #require(shape.count == 2 && shape[0] == mels, "shape \(run.stdout)")
        let data = try Data(contentsOf: output)
        let values = data.withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }
        try #require(values.count == shape[0] * shape[1])
        return (shape[1], values)
    }

    /// Checks the Swift features of `samples` against faster-whisper's under `kernels`: the
    /// same shape, every value within `tolerance`, the mean difference within `meanTolerance`.
    static func expectClose(_ samples: [Int16], mels: Int = 80, padding: Int, kernels: NumpyKernels) throws {
        let expected = try reference(samples, mels: mels, padding: padding, kernels: kernels)
        let actual = WhisperFeatures(mels: mels).logMel(samples, trailingZeros: padding)
        try #require(actual.frames == expected.frames, "\(samples.count) samples + \(padding) zeros")
        try #require(actual.values.count == expected.values.count)
        #expect(actual.frames == WhisperFeatures.frameCount(samples: samples.count, trailingZeros: padding))
        let differences = zip(actual.values, expected.values).map { abs($0 - $1) }
        let largest = differences.max() ?? 0
        let mean = differences.reduce(0.0) { $0 + Double($1) } / Double(max(differences.count, 1))
        print("features of \(samples.count) samples + \(padding) zeros, \(mels) bands, \(kernels.testDescription): "
              + "largest difference \(largest), mean \(mean), \(differences.filter { $0 > 0 }.count) of \(differences.count) differ")
        #expect(largest <= tolerance, "largest difference \(largest)")
        #expect(mean <= meanTolerance, "mean difference \(mean)")
    }

    static func goForward() throws -> [Int16] {
        try Fixtures.rawSamples(Fixtures.recording("goforward.raw"))
    }

    @Test("a recording with faster-whisper's default 160 trailing zeros matches faster-whisper",
          arguments: NumpyKernels.allCases)
    func recording(kernels: NumpyKernels) throws {
        try Self.expectClose(try Self.goForward(), padding: 160, kernels: kernels)
    }

    @Test("a recording with a second of trailing zeros, as partial decodes pad, matches faster-whisper",
          arguments: NumpyKernels.allCases)
    func recordingWithSecondOfSilence(kernels: NumpyKernels) throws {
        try Self.expectClose(try Self.goForward(), padding: 16_000, kernels: kernels)
    }

    @Test("128 mel bands, as large-v3 takes, match faster-whisper", arguments: NumpyKernels.allCases)
    func largeModelBands(kernels: NumpyKernels) throws {
        try Self.expectClose(Array(try Self.goForward().prefix(20_000)), mels: 128, padding: 160, kernels: kernels)
    }

    @Test("tiny inputs, mirrored back and forth when shorter than the padding, match faster-whisper",
          arguments: [(500, 160), (200, 0), (50, 130), (1, 160), (0, 160)])
    func tinyInput(count: Int, padding: Int) throws {
        let samples = Array(try Self.goForward()[12_000..<12_000 + count])
        try Self.expectClose(samples, padding: padding, kernels: .chosen)
    }

    @Test("the power spectrum of a frame is numpy's abs(rfft(frame)) ** 2 within float32 rounding")
    func powerSpectrum() throws {
        let directory = try Fixtures.temporaryDirectory("parley-power")
        defer { try? FileManager.default.removeItem(at: directory) }
        let frames = directory.appendingPathComponent("frames.f32"), power = directory.appendingPathComponent("power.f32")
        // 200 windowed frames of goforward.raw and a silent one, framed and weighted as
        // faster-whisper frames them, and their power as it computes it.
        let script = """
            import sys
            import numpy as np
            audio = np.fromfile(sys.argv[1], dtype="<i2").astype(np.float32) / 32768.0
            window = np.hanning(401)[:-1].astype("float32")
            frames = np.stack([audio[i * 160:i * 160 + 400] for i in range(40, 240)] + [np.zeros(400, np.float32)]) * window
            frames.astype("<f4").tofile(sys.argv[2])
            (np.abs(np.fft.rfft(frames, axis=-1).astype("complex64")) ** 2).astype("<f4").tofile(sys.argv[3])
            """
        let run = try ProcessRunner.run([Self.python, "-c", script, Fixtures.recording("goforward.raw"), frames.path, power.path],
                                        timeout: 120)
        try #require(run.status == 0, "numpy failed: \(run.stderr)")
        func floats(_ url: URL) throws -> [Float] { try Data(contentsOf: url).withUnsafeBytes { Array($0.bindMemory(to: Float.self)) } }
        let input = try floats(frames), expected = try floats(power)
        try #require(input.count == 201 * 400 && expected.count == 201 * 201)
        let features = WhisperFeatures()
        var worst = 0.0
        for frame in 0..<201 {
            let actual = features.powerSpectrum(ofWindowedFrame: Array(input[frame * 400..<(frame + 1) * 400]))
            let energy = actual.reduce(0, +)
            for (value, reference) in zip(actual, expected[frame * 201..<(frame + 1) * 201]) {
                // Relative to the frame's energy: a weak bin's rounding is the transform's, at the
                // scale of the strongest bins.
                worst = max(worst, abs(value - Double(reference)) / max(energy, 1e-30))
            }
        }
        // Measured: 1.4e-7 (float32 rounding of the complex values and of the power).
        #expect(worst < 1e-6, "largest difference, relative to the frame's energy: \(worst)")
        #expect(features.powerSpectrum(ofWindowedFrame: [Float](repeating: 0, count: 400)).allSatisfy { $0 == 0 })
    }

    @Test("fewer than 160 samples in all give no frame; silence gives the floor value everywhere")
    func edgeCases() throws {
        let features = WhisperFeatures()
        let speech = Array(try Self.goForward()[12_000..<12_500])
        for (count, padding) in [(0, 0), (1, 0), (159, 0), (100, 59), (100, -5)] {
            let result = features.logMel(Array(speech.prefix(count)), trailingZeros: padding)
            #expect(result.frames == 0 && result.values.isEmpty, "\(count) samples + \(padding) zeros")
        }
        #expect(features.logMel(Array(speech.prefix(159)), trailingZeros: 1).frames == 1)
        // All zeros: every band is log10(1e-10) = −10, which is also the maximum: (−10 + 4) / 4.
        let silence = features.logMel([], trailingZeros: 480)
        #expect(silence.frames == 3 && silence.values.count == 240)
        #expect(silence.values.allSatisfy { $0 == -1.5 })
    }

    @Test("the 80-band filterbank is get_mel_filters'")
    func filterbank() {
        // Nonzero weights of some rows, and row sums, from faster-whisper 1.2.1's
        // FeatureExtractor.get_mel_filters(16000, 400, n_mels=80).astype("float32").
        let expected: [Int: (first: Int, weights: [Float])] = [
            0: (1, [0.02486259490251541]),
            1: (1, [0.001990821911022067, 0.022871771827340126]),
            10: (10, [0.019908219575881958, 0.004954375326633453]),
            40: (42, [0.00541110523045063, 0.014735565520823002, 0.006518189795315266]),
            79: (186, [0.000366741674952209, 0.0008330700220540166, 0.0012993983691558242, 0.0017657267162576318,
                       0.0022320549469441175, 0.002698383294045925, 0.0031647116411477327, 0.0031413130927830935,
                       0.002692554146051407, 0.0022437951993197203, 0.0017950361361727118, 0.0013462770730257034,
                       0.0008975180680863559, 0.00044875903404317796]),
        ]
        let features = WhisperFeatures(mels: 80)
        let bins = WhisperFeatures.bins
        #expect(bins == 201)
        #expect(features.filterbank.count == 80 * bins)
        for (row, (first, weights)) in expected {
            let values = Array(features.filterbank[row * bins..<(row + 1) * bins])
            let nonzero = values.indices.filter { values[$0] != 0 }
            #expect(nonzero == Array(first..<first + weights.count), "row \(row)")
            for (index, weight) in weights.enumerated() {
                #expect(abs(values[first + index] - weight) <= 1e-6 * weight, "row \(row), bin \(first + index)")
            }
        }
        #expect(features.filterbank.filter { $0 != 0 }.count == 391)
        let total = features.filterbank.reduce(0.0) { $0 + Double($1) }
        #expect(abs(total - 1.9990241056257219) < 1e-6)
        let large = WhisperFeatures(mels: 128).filterbank
        #expect(abs(large[127 * bins + 191] - 0.0004756950947921723) < 1e-9)
        #expect(abs(large[1] - 0.012373986653983593) < 1e-9)
    }

    @Test("the power spectrum is the plain sum's, for a tone and for noise")
    func powerMatchesThePlainSum() {
        var state: UInt64 = 7
        let tone: [Float] = (0..<400).map { Float(sin(2 * Double.pi * 37 * Double($0) / 400)) }
        let noise: [Float] = (0..<400).map { _ in
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Float(Int(state >> 33) % 2001 - 1000) / 1000
        }
        let features = WhisperFeatures()
        for input in [tone, noise] {
            let actual = features.powerSpectrum(ofWindowedFrame: input)
            var worst = 0.0
            for k in 0...200 {
                var (re, im) = (0.0, 0.0)
                for (n, x) in input.enumerated() {
                    let angle = -2 * Double.pi * Double(k * n % 400) / 400
                    re += Double(x) * cos(angle)
                    im += Double(x) * sin(angle)
                }
                worst = max(worst, abs(actual[k] - (re * re + im * im)))
            }
            #expect(worst < 1e-8, "largest difference \(worst)")
        }
        // A tone of 37 cycles a frame is bin 37: (400 / 2)² there, and only the float32 rounding
        // of the tone's samples elsewhere (measured below 1e-9).
        let spectrum = features.powerSpectrum(ofWindowedFrame: tone)
        #expect(abs(spectrum[37] - 40_000) < 0.04, "\(spectrum[37])")
        #expect(spectrum.indices.filter { spectrum[$0] > 1e-6 } == [37])
    }
}
