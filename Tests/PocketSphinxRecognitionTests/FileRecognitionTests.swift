import Foundation
import ParleyCore
import Testing
@testable import PocketSphinxRecognition
@testable import Recognition
import RecognitionTestSupport
import TestSupport

extension RecognitionEngineTests {
    @Test("a file gives the same words as pocketsphinx_continuous with the same settings",
          arguments: Reference.recordings)
    func sameWordsAsContinuous(_ name: String) async throws {
        let path = Fixtures.recording(name)
        let expected = try Reference.continuous(path, configuration: Reference.defaultConfiguration())
        // A fresh recognizer, like the fresh process: the decoder adapts its cepstral mean
        // to what it has heard, so a used one may decode the same audio differently.
        #expect(try await Self.freshTranscript(path) == expected)
        #expect(!expected.isEmpty)
    }

    @Test("on the recordings with human transcripts, Parley's tuning makes no more word errors than the tool at its own defaults")
    func noWorseThanTheToolsDefaults() async throws {
        var parley = 0, tool = 0, words = 0
        for (name, reference) in try Reference.transcripts() {
            let path = Fixtures.recording(name)
            parley += Reference.wordErrors(try await Self.freshTranscript(path).joined(separator: " "), reference)
            tool += Reference.wordErrors(try Reference.continuousAtDefaults(path).joined(separator: " "), reference)
            words += reference.split(separator: " ").count
        }
        #expect(tool < words / 2, "the reference decodes: \(tool) errors of \(words) words")
        #expect(parley <= tool, "Parley \(parley) word errors, pocketsphinx_continuous at its defaults \(tool), of \(words)")
    }
}

extension RecognitionEngineTests {
    @Test("a recording converted to 44.1 kHz, 48 kHz stereo or 16 kHz stereo gives the same words as the original",
          arguments: Reference.recordings)
    func convertedRecordings(_ name: String) async throws {
        let original = Fixtures.recording(name)
        let directory = try Fixtures.temporaryDirectory("parley-convert")
        defer { try? FileManager.default.removeItem(at: directory) }
        // The tool's words for the original under the same settings (sameWordsAsContinuous: Parley's too).
        let expected = try Reference.continuous(original, configuration: Reference.defaultConfiguration())
        for (rate, channels) in [(44_100, 1), (48_000, 2), (16_000, 2)] {
            let converted = try Reference.convert(original, rate: rate, channels: channels, into: directory)
            let words = try await Self.freshTranscript(converted)
            #expect(words == expected, "\(rate) Hz, \(channels) channel(s)")
        }
    }

    @Test("8 kHz recordings come close to the 16 kHz originals' accuracy, far better than plain upsampling")
    func narrowbandRecordings() async throws {
        let directory = try Fixtures.temporaryDirectory("parley-8k")
        defer { try? FileManager.default.removeItem(at: directory) }
        var original = 0, narrowband = 0, naive = 0, words = 0
        for (name, reference) in try Reference.transcripts() {
            let path = Fixtures.recording(name)
            let converted = try Reference.convert(path, rate: 8_000, channels: 1, into: directory)
            let upsampled = try Reference.convert(converted, rate: 16_000, channels: 1, into: directory)
            original += Reference.wordErrors(try await Self.freshTranscript(path).joined(separator: " "), reference)
            narrowband += Reference.wordErrors(try await Self.freshTranscript(converted).joined(separator: " "), reference)
            naive += Reference.wordErrors(
                try Reference.continuous(upsampled, configuration: Reference.defaultConfiguration()).joined(separator: " "),
                reference)
            words += reference.split(separator: " ").count
        }
        // Measured: 16 kHz 24 errors, 8 kHz filled 30, 8 kHz upsampled by sox 69, of 80 words
        // (with -maxhmmpf 30000: 24, 29, 68; with 5000 the filled copies lose 6 more words).
        #expect(narrowband <= original + words / 8)
        #expect(narrowband * 2 < naive)
    }

    @Test("the cards grammar recognizes the cards recordings with fewer word errors than the n-gram model")
    func cardsGrammarBeatsLanguageModel() async throws {
        let grammar = try String(contentsOfFile: Fixtures.recording("cards/cards.gram"), encoding: .utf8)
        var grammarErrors = 0, dictationErrors = 0
        for name in ["001", "002", "003", "004", "005"] {
            let path = Fixtures.recording("cards/\(name).wav")
            let reference = try Reference.transcript(of: name, in: "cards/cards.transcription")
            let withGrammar = try await Self.freshTranscript(path, hint: .grammar(grammar))
            let dictated = try await Self.freshTranscript(path)
            grammarErrors += Reference.wordErrors(withGrammar.joined(separator: " "), reference)
            dictationErrors += Reference.wordErrors(dictated.joined(separator: " "), reference)
        }
        #expect(grammarErrors < dictationErrors)
        #expect(grammarErrors <= 2)
    }

    /// The words of a file decoded by a recognizer that has heard nothing before, like a fresh process.
    static func freshTranscript(_ path: String, hint: RecognitionHint = .dictation) async throws -> [String] {
        let recognizer = PocketSphinxRecognizer(models: PocketSphinxModelRegistry(userDirectory: nil))
        return try await recognizer.transcribeFile(path, locale: Reference.english, options: RecognitionOptions(hint: hint))
            .map(\.text)
    }
}
