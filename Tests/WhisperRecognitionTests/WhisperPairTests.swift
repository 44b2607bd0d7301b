import Foundation
import Locales
import ParleyCore
@testable import WhisperRecognition
import TestSupport
import Testing

/// The two-language request on the real worker and model: one encoder pass,
/// a hypothesis per forced language, each scored.
@Suite("Whisper two-language request", .serialized)
struct WhisperPairTests {
    static let english = LocaleTag("en-US")!, spanish = LocaleTag("es-ES")!

    @Test("an English recording: the English reading is the one-language decode's, and it scores higher")
    func englishRecording() async throws {
        let whisper = try WhisperWorkerTests.recognizer()
        defer { Task { await whisper.worker.shutdown() } }
        let samples = try Fixtures.rawSamples(Fixtures.recording("goforward.raw"))
        let single = try await whisper.recognizeUtterance(samples, locale: Self.english, options: .init(alternativeCount: 0))
        let pair = try await whisper.recognizePair(samples, first: Self.spanish, second: Self.english)
        let hypotheses = try #require(pair.hypotheses)
        #expect(hypotheses.map(\.language) == ["es", "en"], "in the order asked")
        #expect(hypotheses[1].text == single.text, "the forced-English greedy reading equals the one-language decode")
        #expect(pair.text == hypotheses[0].text)
        #expect(hypotheses[1].decoderScore > hypotheses[0].decoderScore)
        #expect(hypotheses[1].languageProbability > 0.9)
        #expect(abs(hypotheses[0].languageProbability + hypotheses[1].languageProbability - 1) < 1e-6)
    }

    @Test("a Spanish clip: the Spanish reading wins the decision")
    func spanishClip() async throws {
        let directory = try Fixtures.temporaryDirectory("parley-pair")
        defer { try? FileManager.default.removeItem(at: directory) }
        let samples = try WhisperWorkerTests.espeakSamples("el tren sale de la estación a las ocho de la mañana",
                                                           voice: "es-419", speed: 140, in: directory)
        let whisper = try WhisperWorkerTests.recognizer()
        defer { Task { await whisper.worker.shutdown() } }
        let single = try await whisper.recognizeUtterance(samples, locale: Self.spanish, options: .init(alternativeCount: 0))
        let hypotheses = try #require(try await whisper.recognizePair(samples, first: Self.english, second: Self.spanish).hypotheses)
        #expect(hypotheses[1].text == single.text)
        let evidence = hypotheses.map { LanguagePairDecision.Evidence($0, unknownWords: nil) }
        #expect(LanguagePairDecision.decide(evidence[0], evidence[1])?.winner == 1, "\(hypotheses)")
    }

    @Test("a Norwegian side (nb-NO, Whisper's no): both requests are served and the Norwegian reading hears the words")
    func norwegianBokmal() async throws {
        let directory = try Fixtures.temporaryDirectory("parley-pair-nb")
        defer { try? FileManager.default.removeItem(at: directory) }
        let samples = try WhisperWorkerTests.espeakSamples("toget går fra stasjonen klokken åtte om morgenen",
                                                           voice: "nb", speed: 140, in: directory)
        let whisper = try WhisperWorkerTests.recognizer()
        defer { Task { await whisper.worker.shutdown() } }
        let norwegian = LocaleTag("nb-NO")!
        #expect(await whisper.serves(norwegian))
        _ = await (try whisper.makePairRequest(first: norwegian, second: Self.english, options: .init())).cancel()
        _ = await (try whisper.makeRequest(locale: norwegian, options: .init())).cancel()
        let hypotheses = try #require(try await whisper.recognizePair(samples, first: Self.english, second: norwegian).hypotheses)
        #expect(hypotheses.map(\.language) == ["en", "no"])
        // The base model takes eSpeak NG's Norwegian for English; the forced Norwegian reading still
        // hears the sentence, and the decoder finds it likelier than the English one.
        #expect(hypotheses[1].text.lowercased().contains("stasjonen"), "\(hypotheses)")
        #expect(hypotheses[1].decoderScore > hypotheses[0].decoderScore, "\(hypotheses)")
    }

    @Test("a language the model does not know is refused before any audio is sent")
    func unknownLanguage() async throws {
        let whisper = try WhisperWorkerTests.recognizer()
        defer { Task { await whisper.worker.shutdown() } }
        await #expect(throws: RecognitionError.self) {
            _ = try await whisper.makePairRequest(first: Self.english, second: LocaleTag("xx-XX")!, options: .init())
        }
    }
}
