import Foundation
import Locales
@testable import Recognition
import TestSupport
import Testing

/// Whisper's log-mel features computed in Swift, against faster-whisper's own `FeatureExtractor`
/// run by the Whisper environment's Python.
@Suite("Whisper features")
struct WhisperFeaturesTests {
    static let python = "\(DataDirectories.personalData())/whisper-env/bin/python3"

    /// The largest difference allowed between a Swift and a faster-whisper feature value: one
    /// float32 step of a value below 2 (the mel product's order of summation; see WhisperFeatures).
    static let tolerance: Float = 1.2e-7
    /// The largest share of values allowed to differ at all: 0.4 % on goforward.raw (99 of
    /// 22,320); 6.8 % when the power spectrum was computed in Double from the unrounded transform.
    static let differingShare = 0.01

    /// faster-whisper's features of `samples` (read as faster-whisper reads 16-bit PCM, / 32768)
    /// with `padding` trailing zeros: the frame count and the values, band by band.
    static func reference(_ samples: [Int16], mels: Int, padding: Int) throws -> (frames: Int, values: [Float]) {
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

    /// The largest absolute difference between the Swift and the faster-whisper features of the
    /// same input, after checking that both have the same shape.
    static func largestDifference(_ samples: [Int16], mels: Int = 80, padding: Int) throws -> Float {
        let expected = try reference(samples, mels: mels, padding: padding)
        let actual = WhisperFeatures(mels: mels).logMel(samples, trailingZeros: padding)
        try #require(actual.frames == expected.frames, "\(samples.count) samples + \(padding) zeros")
        try #require(actual.values.count == expected.values.count)
        #expect(actual.frames == WhisperFeatures.frameCount(samples: samples.count, trailingZeros: padding))
        let differing = zip(actual.values, expected.values).filter { $0 != $1 }.count
        if actual.values.count >= 10_000 {
            #expect(Double(differing) <= differingShare * Double(actual.values.count),
                    "\(differing) of \(actual.values.count) values differ")
        }
        return zip(actual.values, expected.values).reduce(0) { max($0, abs($1.0 - $1.1)) }
    }

    static func goForward() throws -> [Int16] {
        try Fixtures.rawSamples(Fixtures.recording("goforward.raw"))
    }

    @Test("a recording with faster-whisper's default 160 trailing zeros matches faster-whisper")
    func recording() throws {
        let samples = try Self.goForward()
        let difference = try Self.largestDifference(samples, padding: 160)
        #expect(difference <= Self.tolerance, "largest difference \(difference)")
    }

    @Test("a recording with a second of trailing zeros, as partial decodes pad, matches faster-whisper")
    func recordingWithSecondOfSilence() throws {
        let samples = try Self.goForward()
        let difference = try Self.largestDifference(samples, padding: 16_000)
        #expect(difference <= Self.tolerance, "largest difference \(difference)")
    }

    @Test("128 mel bands, as large-v3 takes, match faster-whisper")
    func largeModelBands() throws {
        let samples = Array(try Self.goForward().prefix(20_000))
        let difference = try Self.largestDifference(samples, mels: 128, padding: 160)
        #expect(difference <= Self.tolerance, "largest difference \(difference)")
    }

    @Test("tiny inputs, mirrored back and forth when shorter than the padding, match faster-whisper",
          arguments: [(500, 160), (200, 0), (50, 130), (1, 160), (0, 160)])
    func tinyInput(count: Int, padding: Int) throws {
        let samples = Array(try Self.goForward()[12_000..<12_000 + count])
        let difference = try Self.largestDifference(samples, padding: padding)
        #expect(difference <= Self.tolerance, "largest difference \(difference)")
    }

    @Test("the power spectrum of a frame is numpy's abs(rfft(frame)) ** 2 to the bit")
    func powerSpectrumExact() throws {
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
        var differing = 0
        for frame in 0..<201 {
            let actual = features.powerSpectrum(ofWindowedFrame: Array(input[frame * 400..<(frame + 1) * 400]))
            differing += zip(actual, expected[frame * 201..<(frame + 1) * 201]).filter { $0 != $1 }.count
        }
        #expect(differing == 0, "\(differing) of \(201 * 201) power values differ")
        #expect(WhisperFeatures.magnitude(3, -4) == 5 && WhisperFeatures.magnitude(0, 0) == 0)
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

    @Test("the real transform matches the plain sum, in FFTPACK's order", arguments: [4, 5, 16, 20, 80, 100, 400])
    func fourierTransform(size: Int) {
        let input: [Double] = (0..<size).map { n in sin(Double(n) * 1.3 + 0.2) + 0.1 * Double(n % 7) }
        var data = input, scratch = [Double](repeating: .nan, count: size)
        let transform = WhisperFeatures.RealTransform(size: size)
        data.withUnsafeMutableBufferPointer { data in
            scratch.withUnsafeMutableBufferPointer { transform.forward(data.baseAddress!, scratch: $0.baseAddress!) }
        }
        var worst = 0.0
        for k in 0...size / 2 {
            var (sumRe, sumIm) = (0.0, 0.0)
            for (n, x) in input.enumerated() {
                let angle = -2 * Double.pi * Double(k * n % size) / Double(size)
                sumRe += x * cos(angle)
                sumIm += x * sin(angle)
            }
            // r0, r1, i1, r2, i2, …; for an even size the last frequency has its real part alone.
            let re = k == 0 ? data[0] : data[2 * k - 1]
            let im = k == 0 || 2 * k == size ? 0 : data[2 * k]
            worst = max(worst, abs(re - sumRe), abs(im - sumIm))
        }
        #expect(worst < 1e-12 * Double(size), "largest difference \(worst)")
    }
}
