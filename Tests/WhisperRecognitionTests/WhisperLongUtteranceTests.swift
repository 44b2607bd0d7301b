import Foundation
import ParleyCore
import Testing
import RecognitionTestSupport
import TestSupport
@testable import WhisperRecognition
@testable import Recognition

/// An utterance longer than the encoder's window, decoded whole (a dialogue turn's final decode)
/// and in two languages at once (a hands-free turn), on the real model.
@Suite("Whisper past the 30 s window", .serialized)
struct WhisperLongUtteranceTests {
    static let english = LocaleTag("en-US")!, spanish = LocaleTag("es-ES")!

    /// The samples of the passage said twice (35.9 s) and what was said.
    static func passage() throws -> (samples: [Int16], reference: String) {
        let passage = try #require(LongSpeechPassages.all.first { $0.clips.count == 8 })
        let directory = try Fixtures.temporaryDirectory("parley-long-utterance")
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = try LongSpeechPassages.build(passage, in: directory)
        return (try AudioFileReader.read(file).samples, passage.reference)
    }

    /// `text` as the transcripts spell it: lower case, no punctuation, hyphenated words apart, "Mr." spelled.
    static func words(_ text: String) -> [String] {
        String(text.lowercased().map { $0.isLetter ? $0 : " " }).split(separator: " ").map { $0 == "mr" ? "mister" : String($0) }
    }

    @Test("a 35.9 s utterance is heard to its end, its word times running on past 30 s")
    func wholeUtterance() async throws {
        let (samples, reference) = try Self.passage()
        #expect(samples.count > 30 * 16_000)
        let whisper = try WhisperWorkerTests.recognizer()
        defer { Task { await whisper.worker.shutdown() } }
        let result = try await whisper.recognizeUtterance(samples, locale: Self.english)
        let heard = Self.words(result.text)
        #expect(heard.suffix(3) == reference.split(separator: " ").map(String.init).suffix(3), "\(result.text)")
        // `parley listen --file` makes 2 errors in these 114 words, stock transcribe 20 or more.
        let errors = Reference.wordErrors(heard.joined(separator: " "), reference)
        #expect(errors <= 4, "\(errors) errors: \(result.text)")
        let starts = result.words.map(\.start)
        #expect(starts == starts.sorted() && (starts.last ?? 0) > 33, "word times: \(starts)")
    }

    @Test("in a two-language decode, the language spoken is heard to its end")
    func pair() async throws {
        let (samples, reference) = try Self.passage()
        let whisper = try WhisperWorkerTests.recognizer()
        defer { Task { await whisper.worker.shutdown() } }
        let result = try await whisper.recognizePair(samples, first: Self.spanish, second: Self.english)
        let hypotheses = try #require(result.hypotheses)
        #expect(hypotheses.count == 2 && hypotheses[1].language == "en")
        #expect(Self.words(hypotheses[1].text).suffix(3) == reference.split(separator: " ").map(String.init).suffix(3),
                "\(hypotheses)")
        #expect(hypotheses[1].languageProbability > 0.5, "\(hypotheses)")
    }
}

/// The short window's one loop that ends by itself: a clip's text said twice over. Whether
/// Whisper loops on a given clip turns on its kernels: cards/001.wav read "10 of clubs 10 of
/// clubs" on some processors and once on others, and the same card said twice in a row read
/// three times on this one. So no clip is required to loop; the rule is checked on each of
/// fifteen inputs, whichever way they read (the rule itself, the worker's `said_twice`, is
/// tested in worker/tests/test_second_opinion.py). Ten of them are a card said twice, a third
/// of a second or a second apart: their right reading is said twice over, and at least one
/// must read so, or the test would check nothing.
@Suite("Whisper reading said twice", .serialized)
struct WhisperSaidTwiceTests {
    @Test("a final reading said twice over is always decoded again in the full window")
    func saidTwiceIsDecodedAgain() async throws {
        let shortOnly = try WhisperWorkerTests.recognizer(secondOpinion: false)
        let whisper = try WhisperWorkerTests.recognizer()
        var readings: [String] = []
        for index in 1...5 {
            let card = try AudioFileReader.read(Fixtures.recording(String(format: "cards/%03d.wav", index))).samples
            // Each card alone, and said twice with a third of a second, then a second, between.
            for gap in [nil, 5_000, 16_000] {
                let samples = gap.map { card + [Int16](repeating: 0, count: $0) + card } ?? card
                let short = try await shortOnly.recognizeUtterance(samples, locale: WhisperLongUtteranceTests.english)
                let opinions = whisper.secondOpinionCount
                let result = try await whisper.recognizeUtterance(samples, locale: WhisperLongUtteranceTests.english)
                readings.append(short.text)
                guard Self.saidTwice(short.text) else { continue }
                #expect(whisper.secondOpinionCount == opinions + 1, "card \(index): \(short.text)")
                #expect(!result.text.isEmpty, "card \(index): the full window's reading is kept")
            }
        }
        let twice = readings.filter(Self.saidTwice).count
        #expect(twice > 0, "no short-window reading said twice over: \(readings)")
        print("short-window readings said twice over: \(twice) of \(readings.count)")
        await shortOnly.worker.shutdown()
        await whisper.worker.shutdown()
    }

    /// The worker's rule (`second_opinion.said_twice`), restated to find the readings it covers.
    static func saidTwice(_ text: String) -> Bool {
        let words = text.lowercased().split(whereSeparator: \.isWhitespace)
            .map { $0.filter { $0.isLetter || $0.isNumber } }.filter { !$0.isEmpty }
        guard words.count >= 4, words.count.isMultiple(of: 2) else { return false }
        return words[..<(words.count / 2)] == words[(words.count / 2)...]
    }
}
