import Foundation
import Locales
import ParleyCore
import Recognition
import Testing
import TestSupport
@testable import WhisperRecognition

/// The language heard in each decode, on the real model: told the other person's language, the
/// worker gives each of the two languages' share of the window, from the encoder pass the
/// decode already makes, and each clause of an interpreted turn carries it.
@Suite("The language of each decode and clause, on the real model", .serialized)
struct WhisperClauseLanguageTests {
    static let english = LocaleTag("en-US")!
    static let spanish = LocaleTag("es-ES")!

    @Test("a decode in English tells the shares of English and Spanish: near all English for a LibriVox sentence, near all Spanish for a Spanish question")
    func decodeTellsTheShares() async throws {
        let directory = try Fixtures.temporaryDirectory("parley-shares")
        defer { try? FileManager.default.removeItem(at: directory) }
        let question = directory.appendingPathComponent("question.wav").path
        let made = try ProcessRunner.run(["espeak-ng", "-v", "es-419", "-s", "140", "-w", question,
                                          "dónde está la estación de tren"])
        try #require(made.status == 0, "\(made.stderr)")
        let spanish = try AudioFileReader.read(question).samples
        let sentence = try AudioFileReader.read("\(LongSpeechPassages.recordings)/\(LongSpeechPassages.threeSentences.clips[1])").samples

        let whisper = try WhisperWorkerTests.recognizer()
        defer { Task { await whisper.worker.shutdown() } }
        try await whisper.start()
        var options = RecognitionOptions(commitPolicy: .localAgreement)
        options.otherLocale = Self.spanish
        let english = try await whisper.decodeCommitting(sentence, language: "en", options: options, context: nil)
        let asked = try await whisper.decodeCommitting(spanish, language: "en", options: options, context: nil)
        print("Spanish share: LibriVox \(english.languageShares ?? []), the question \(asked.languageShares ?? [])")
        // Read here: 0.00001 and 0.9985; the bounds lie well away from both.
        let (own, other) = (try #require(english.languageShares), try #require(asked.languageShares))
        #expect(own.count == 2 && abs(own[0] + own[1] - 1) < 1e-3 && own[1] < 0.1, "\(own)")
        #expect(other.count == 2 && other[1] > 0.8, "\(other)")
        let plain = try await whisper.decodeCommitting(sentence, language: "en", options: RecognitionOptions(), context: nil)
        #expect(plain.languageShares == nil, "not asked, not told")
    }

    @Test("each clause of an English request told of Spanish carries its Spanish share: a LibriVox passage's, near none")
    func clausesCarryTheirShare() async throws {
        let directory = try Fixtures.temporaryDirectory("parley-clause-shares")
        defer { try? FileManager.default.removeItem(at: directory) }
        let passage = LongSpeechPassages.threeSentences
        let samples = try AudioFileReader.read(try LongSpeechPassages.build(passage, pauses: [0.8, 0.6, 1.0], in: directory))
            .samples + [Int16](repeating: 0, count: 32_000)
        let whisper = try WhisperWorkerTests.recognizer()
        defer { Task { await whisper.worker.shutdown() } }
        var options = RecognitionOptions.conversation(endpointMilliseconds: 1500, interpreting: .localAgreement)
        options.otherLocale = Self.spanish
        let request = try await whisper.makeRequest(locale: Self.english, options: options, newStream: true)
        var final: RecognitionResult?
        for start in stride(from: 0, to: samples.count, by: 1600) where final == nil {
            for case let .final(result) in try await request.append(
                PCMChunk(format: .recognition, samples: Array(samples[start..<min(start + 1600, samples.count)]))) {
                final = result
            }
        }
        let clauses = try #require(final?.clauses)
        let report = clauses.map { "\($0.text) \($0.otherLanguageShare.map { String(format: "%.4f", $0) } ?? "-")" }
        print("clauses and their Spanish share: \(report.joined(separator: " | "))")
        #expect(!clauses.isEmpty && clauses.allSatisfy { ($0.otherLanguageShare ?? 1) < 0.1 }, "\(report)")
    }

    @Test("the worker refuses shares of a language it does not know, or of one language twice, in one sentence naming the field")
    func refusals() async throws {
        let whisper = try WhisperWorkerTests.recognizer()
        defer { Task { await whisper.worker.shutdown() } }
        try await whisper.start()
        let samples = [Int16](repeating: 0, count: 16_000)
        for (languages, sentence) in [(["en", "xx"], "the model does not know the language 'xx'"),
                                      (["en", "en"], "a transcribe request's 'shares_of' needs two different languages")] {
            await #expect {
                _ = try await whisper.worker.transcribe(samples, language: "en", prompt: nil, beam: 1, alternatives: 0,
                                                        words: false, padding: .silence(seconds: 1), sharesOf: languages)
            } throws: { error in
                "\(error)".contains(sentence)
            }
        }
    }
}
