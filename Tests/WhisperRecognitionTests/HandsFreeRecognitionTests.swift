import Foundation
import Locales
import ParleyCore
@testable import WhisperRecognition
import TestSupport
import Testing

/// The two-language request's own silence and skip rules on the real worker and
/// model: noise and silence that reach it are refused in both languages, an
/// utterance whose language is overwhelming is decoded in that language alone,
/// and the rule that keeps a reading both one-language rules called silent.
@Suite("Hands-free recognition", .serialized)
struct HandsFreeRecognitionTests {
    static let english = LocaleTag("en-US")!, spanish = LocaleTag("es-ES")!

    @Test("white, pink and brown noise, clicks, typing, a door slam, hum and silence are no words in either language, in either window")
    func noiseIsNoSide() async throws {
        var generator = NoiseGenerator(seed: 7)
        let count = 48_000
        let signals: [(String, [Int16])] = [
            ("silence", [Int16](repeating: 0, count: count)),
            ("near silence", (0..<count).map { _ in Int16(generator.uniform() * 40) }),
            ("white noise", (0..<count).map { _ in Int16(generator.uniform() * 3_000) }),
            ("loud white noise", (0..<count).map { _ in Int16(generator.uniform() * 12_000) }),
            ("pink noise", generator.pink(count: count, scale: 3_000)),
            ("loud pink noise", generator.pink(count: count, scale: 9_000)),
            ("clicks", (0..<count).map { _ in generator.uniform() > 0.996 ? 20_000 : 0 }),
            ("hum", (0..<count).map { Int16(3_000 * sin(2 * Double.pi * 100 * Double($0) / 16_000)) }),
            ("brown noise", generator.brown(count: count, peak: 6_000)),
            ("typing", generator.bursts(count: count, bursts: 14, length: 800, decay: 80, peak: 12_000)),
            ("a door slam", generator.bursts(count: count, bursts: 1, length: 12_000, decay: 1_500, peak: 20_000)),
        ]
        let whisper = try WhisperWorkerTests.recognizer()
        defer { Task { await whisper.worker.shutdown() } }
        for (name, samples) in signals {
            for (first, second) in [(Self.english, Self.spanish), (Self.spanish, Self.english)] {
                do {
                    let heard = try await whisper.recognizePair(samples, first: first, second: second)
                    Issue.record("\(name) was heard as \(heard.hypotheses ?? [])")
                } catch RecognitionError.emptyRecognition {
                    // no words in either language: no side
                }
            }
        }
        // Each was silent in the short window and judged again in the full one.
        #expect(whisper.secondOpinionCount == 2 * signals.count)
    }

    @Test("an English recording the model is sure of is decoded in English alone, as the one-language decode")
    func overwhelmingLanguageIsDecodedAlone() async throws {
        let whisper = try WhisperWorkerTests.recognizer()
        defer { Task { await whisper.worker.shutdown() } }
        let samples = try Fixtures.rawSamples(Fixtures.recording("goforward.raw"))
        let single = try await whisper.recognizeUtterance(samples, locale: Self.english, options: .init(alternativeCount: 0))
        let hypotheses = try #require(try await whisper.recognizePair(samples, first: Self.spanish, second: Self.english).hypotheses)
        #expect(hypotheses[1].languageProbability >= 0.9995)
        #expect(hypotheses[1].text == single.text)
        #expect(hypotheses[0].text.isEmpty && hypotheses[0].decoderScore <= -100, "Spanish was not decoded: \(hypotheses[0])")
        let evidence = hypotheses.map { LanguagePairDecision.Evidence($0, unknownWords: nil) }
        #expect(LanguagePairDecision.decide(evidence[0], evidence[1])?.winner == 1)
    }

    @Test("a Spanish clip the model is not sure of is decoded in both languages")
    func unsureLanguageIsDecodedInBoth() async throws {
        let directory = try Fixtures.temporaryDirectory("parley-pair-both")
        defer { try? FileManager.default.removeItem(at: directory) }
        let samples = try WhisperWorkerTests.espeakSamples("necesito un médico", voice: "es-419", speed: 140, in: directory)
        let whisper = try WhisperWorkerTests.recognizer()
        defer { Task { await whisper.worker.shutdown() } }
        let hypotheses = try #require(try await whisper.recognizePair(samples, first: Self.english, second: Self.spanish).hypotheses)
        #expect(hypotheses.allSatisfy { $0.languageProbability < 0.9995 })
        #expect(hypotheses.allSatisfy { $0.decoderScore > -100 }, "both decoded: \(hypotheses)")
        #expect(!hypotheses[1].text.isEmpty)
    }

    @Test("speech the short window calls silent is decoded again in the full window, in both languages and in its own")
    func silenceOfTheShortWindowGetsASecondOpinion() async throws {
        let directory = try Fixtures.temporaryDirectory("parley-pair-window")
        defer { try? FileManager.default.removeItem(at: directory) }
        let shortOnly = try WhisperWorkerTests.recognizer(secondOpinion: false)
        let whisper = try WhisperWorkerTests.recognizer()
        defer { Task { await shortOnly.worker.shutdown(); await whisper.worker.shutdown() } }
        var rescued = (pair: 0, single: 0)
        for (voice, speed, text) in NearSilenceClips.clips {
            let samples = try WhisperWorkerTests.espeakSamples(text, voice: voice, speed: speed, in: directory)
            let clip = "\(voice) at \(speed): \(text)"
            // Both readings silent in the short window: the full window must be asked.
            let shortPair = try? await shortOnly.recognizePair(samples, first: Self.english, second: Self.spanish)
            var opinions = whisper.secondOpinionCount
            let pair = try? await whisper.recognizePair(samples, first: Self.english, second: Self.spanish)
            let pairAsked = whisper.secondOpinionCount > opinions
            if shortPair == nil { #expect(pairAsked, "\(clip): silent in the short window, and no second opinion") }
            if !pairAsked { #expect((pair == nil) == (shortPair == nil), "\(clip): without a second opinion the short window decides") }
            if shortPair == nil, let readings = pair?.hypotheses {
                rescued.pair += 1
                #expect(readings.allSatisfy { $0.decoderScore > -100 }, "\(clip): both languages decoded: \(readings)")
            }
            let shortSingle = try? await shortOnly.recognizeUtterance(samples, locale: Self.spanish)
            opinions = whisper.secondOpinionCount
            let single = try? await whisper.recognizeUtterance(samples, locale: Self.spanish)
            let singleAsked = whisper.secondOpinionCount > opinions
            if shortSingle == nil { #expect(singleAsked, "\(clip): silent in the short window, and no second opinion") }
            if shortSingle == nil, let single {
                rescued.single += 1
                #expect(!single.text.isEmpty && !single.words.isEmpty, "\(clip): \(single)")
            }
        }
        #expect(rescued.pair >= 1 && rescued.single >= 2, "heard only through the second opinion: \(rescued)")
    }

    @Test("the pair's no-speech rule keeps a reading only when both were called silent and it is within both bounds")
    func pairSilenceRule() throws {
        // Readings: (no-speech probability, mean log-probability, text); True is silent.
        let script = """
            import importlib.util, sys
            spec = importlib.util.spec_from_file_location("worker", sys.argv[1])
            worker = importlib.util.module_from_spec(spec); spec.loader.exec_module(worker)
            for readings in ([(0.66, -1.04, "Like when"), (0.66, -1.2, "la cuenta")],
                             [(0.65, -1.6, "Mannyara"), (0.65, -1.26, "la catenral")],
                             [(0.69, -1.74, "I'm going to put the sauce on the side."), (0.69, -4.5, "y")],
                             [(0.92, -1.33, "you"), (0.92, -5.2, "y")],
                             [(0.45, -6.2, "The"), (0.45, -1.45, "")],
                             [(0.2, -0.5, "Necesito un médico."), (0.2, -1.4, "I need")],
                             [(0.7, -0.9, "heard"), (0.7, -1.3, "rule says silent")]):
                print(" ".join(str(s) for s in worker.pair_silent(readings)))
            """
        let worker = Fixtures.repository.appendingPathComponent("worker/whisper_worker.py").path
        let output = try ProcessRunner.run(["python3", "-c", script, worker])
        #expect(output.status == 0, "\(output.stderr)")
        #expect(output.stdout.split(separator: "\n") == [
            "False False",   // both silent to the one-language rule, both within the bounds: both kept
            "True False",    // the reading below the log-probability bound stays silent
            "True True",     // white noise's fluent English scores below the bound
            "True True",     // silence's "you": the no-speech probability is above the bound
            "True True",     // no text is no reading
            "False False",   // speech: the one-language rule hears both
            "False True",    // one reading heard: the other keeps the one-language verdict
        ])
    }
}

/// A small deterministic noise source: uniform samples in -1…1 and pink noise
/// (white noise through Paul Kellet's three-pole filter).
private struct NoiseGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }

    mutating func uniform() -> Double {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return Double((z ^ (z >> 31)) >> 11) / Double(1 << 52) - 1
    }

    /// Brown noise: white noise through a leaky integrator, scaled so its peak is `peak`.
    mutating func brown(count: Int, peak: Double) -> [Int16] {
        var level = 0.0
        let raw = (0..<count).map { _ in
            level = 0.995 * level + uniform()
            return level
        }
        return Self.scaled(raw, peak: peak)
    }

    /// Short bursts that die away within 50 ms at `bursts` random moments: typing, or one
    /// long one (`decay` in samples) for a door that slams.
    mutating func bursts(count: Int, bursts: Int, length: Int, decay: Double, peak: Double) -> [Int16] {
        var raw = [Double](repeating: 0, count: count)
        for _ in 0..<bursts {
            let start = Int((uniform() + 1) / 2 * Double(count - length))
            for offset in 0..<length { raw[start + offset] += uniform() * exp(-Double(offset) / decay) }
        }
        return Self.scaled(raw, peak: peak)
    }

    static func scaled(_ raw: [Double], peak: Double) -> [Int16] {
        let largest = raw.map(abs).max() ?? 1
        return raw.map { Int16(peak * $0 / max(largest, 1e-9)) }
    }

    mutating func pink(count: Int, scale: Double) -> [Int16] {
        var (b0, b1, b2) = (0.0, 0.0, 0.0)
        return (0..<count).map { _ in
            let white = uniform()
            b0 = 0.99765 * b0 + white * 0.0990460
            b1 = 0.96300 * b1 + white * 0.2965164
            b2 = 0.57000 * b2 + white * 1.0526913
            return Int16(max(-32_768, min(32_767, scale * (b0 + b1 + b2 + white * 0.1848) / 3)))
        }
    }
}
