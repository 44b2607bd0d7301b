import Foundation
import Locales
import ParleyCore
import Testing
@testable import PocketSphinxRecognition
@testable import Recognition
import RecognitionTestSupport
import TestSupport

extension RecognitionEngineTests {
    static let silence = PCMChunk(format: .recognition, samples: [Int16](repeating: 0, count: 32_000))

    static func goForward() throws -> PCMChunk { try AudioFileReader.read(Fixtures.recording("goforward.raw")) }

    /// The final text of `audio` fed to `request`: from the endpoint, or from `finish` when none came.
    static func decode(_ audio: PCMChunk, with request: some RecognitionRequest) async throws -> String {
        for case let .final(result) in try await request.append(audio) { return result.text }
        return try await request.finish().text
    }

    @Test("an unsupported locale is refused with the installed ones and how to add one")
    func unsupportedLocale() async throws {
        let spanish = LocaleTag(language: "es", region: "ES")
        let error = await #expect(throws: RecognitionError.self) {
            _ = try await Self.recognizer.makeRequest(locale: spanish, options: .init())
        }
        #expect(error == .unsupportedLocale(spanish, installed: [Reference.english]))
        #expect(error?.description == "no speech model for es-ES; installed: en-US; a model for another locale goes "
            + "in its own folder under the models directory (see `parley languages`)")
    }

    @Test("a bare language resolves through the recognition priority table")
    func bareLanguage() async throws {
        let priorities = PriorityTable([.recognition: ["en": [LocaleTag("en-GB")!, Reference.english]]])
        let recognizer = PocketSphinxRecognizer(models: PocketSphinxModelRegistry(userDirectory: nil), priorities: priorities)
        #expect(try recognizer.resolve(LocaleTag("en")!) == Reference.english)
        #expect(await recognizer.isAvailable(LocaleTag("en")!))
    }

    @Test("silence ends in an empty recognition")
    func emptyRecognition() async throws {
        let request = try await Self.recognizer.makeRequest(locale: Reference.english, options: .init(), newStream: true)
        #expect(try await request.append(Self.silence).isEmpty)
        let error = await #expect(throws: RecognitionError.self) { _ = try await request.finish() }
        #expect(error == .emptyRecognition)
        #expect(error?.description == "no speech was recognized (empty recognition)")
    }

    @Test("no speech within the start timeout is an error")
    func speechTimeout() async throws {
        let options = RecognitionOptions(startTimeout: 1.5)
        let request = try await Self.recognizer.makeRequest(locale: Reference.english, options: options, newStream: true)
        let error = await #expect(throws: RecognitionError.self) { _ = try await request.append(Self.silence) }
        #expect(error == .speechTimeout(1.5))
        #expect(error?.description == "no speech was heard within 1.5 seconds")
    }

    @Test("an utterance past the maximum length fails and keeps what was recognized")
    func utteranceTooLong() async throws {
        let options = RecognitionOptions(maximumDuration: 1)
        let request = try await Self.recognizer.makeRequest(locale: Reference.english, options: options, newStream: true)
        let error = await #expect(throws: RecognitionError.self) { _ = try await request.append(Self.goForward()) }
        guard case let .utteranceTooLong(limit, partial) = error else {
            Issue.record("expected utteranceTooLong, got \(String(describing: error))")
            return
        }
        #expect(limit == 1)
        #expect(partial.text.hasPrefix("go"))
        #expect(!partial.isFinal)
        #expect(error?.description == "the utterance ran past the 1-second limit; what was recognized so far is kept")
    }

    @Test("a file with an utterance past the maximum length keeps its beginning and goes on")
    func longUtteranceInFile() async throws {
        var audio = try Self.goForward()
        audio.samples += try AudioFileReader.read(Fixtures.recording("something.raw")).samples
        let results = try await Self.recognizer.transcribe(audio, locale: Reference.english,
                                                           options: RecognitionOptions(maximumDuration: 1))
        #expect(results.count >= 2)
        #expect(results.first?.isFinal == false)
        #expect(results.first?.text.hasPrefix("go") == true)
    }

    @Test("a request takes no audio after its utterance ended; finish then answers with the final it gave")
    func requestReused() async throws {
        var audio = try Self.goForward()
        audio.samples += Self.silence.samples
        let request = try await Self.recognizer.makeRequest(locale: Reference.english, options: .init(), newStream: true)
        let finals = try await request.append(audio).compactMap { if case let .final(result) = $0 { result } else { nil } }
        #expect(finals.map(\.text) == ["go forward ten meters"])
        let error = await #expect(throws: RecognitionError.self) { _ = try await request.append(Self.silence) }
        #expect(error == .requestReused)
        #expect(error?.description == "this recognition request has already finished; start a new one")
        #expect(try await request.finish().text == "go forward ten meters", "a key pressed as the speech ended gets the turn")
        #expect(await request.cancel().text.isEmpty)
    }

    @Test("a new request takes the decoder over from one left open")
    func supersededRequest() async throws {
        let first = try await Self.recognizer.makeRequest(locale: Reference.english, options: .init(), newStream: true)
        let second = try await Self.recognizer.makeRequest(locale: Reference.english, options: .init())
        await #expect(throws: RecognitionError.requestReused) { _ = try await first.append(Self.silence) }
        #expect(try await Self.decode(Self.goForward(), with: second) == "go forward ten meters")
    }

    @Test("a grammar with a word the dictionary lacks is refused with the reason")
    func grammarWithUnknownWord() async throws {
        let grammar = "#JSGF V1.0; grammar bad; public <x> = go qwxzzy;"
        let error = await #expect(throws: GrammarError.self) {
            _ = try await Self.recognizer.makeRequest(locale: Reference.english, options: .init(hint: .grammar(grammar)))
        }
        #expect(error?.description.contains("qwxzzy") == true)
        // The decoder is still usable afterwards.
        let request = try await Self.recognizer.makeRequest(locale: Reference.english, options: .init(), newStream: true)
        #expect(try await Self.decode(Self.goForward(), with: request) == "go forward ten meters")
    }

    /// Every sentence of the confirmation grammar.
    static let confirmationAnswers: Set<String> = ["yes", "yeah", "yep", "sure", "correct", "right", "okay",
                                                    "that is right", "no", "nope", "wrong", "incorrect", "that is wrong"]

    @Test("the confirmation hint and user grammars can be switched between requests without redefinition")
    func switchingSearches() async throws {
        let grammar = try String(contentsOfFile: Fixtures.recording("goforward.gram"), encoding: .utf8)
        // What each search hears in a recording when it is the only one a fresh decoder has used.
        // "go somewhere and do something": each search makes something else of it, so a decoder
        // left on the previous search would be seen.
        let audio = try AudioFileReader.read(Fixtures.recording("something.raw"))
        func alone(_ hint: RecognitionHint) async throws -> String {
            let fresh = PocketSphinxRecognizer(models: PocketSphinxModelRegistry(userDirectory: nil))
            let request = try await fresh.makeRequest(locale: Reference.english, options: .init(hint: hint), newStream: true)
            return try await Self.decode(audio, with: request)
        }
        let expected = [try await alone(.dictation), try await alone(.confirmation), try await alone(.grammar(grammar))]
        #expect(Set(expected).count == 3, "\(expected)")
        #expect(expected[0] == (try Reference.continuous(Fixtures.recording("something.raw"),
                                                         configuration: Reference.defaultConfiguration()).joined(separator: " ")))
        #expect(Self.confirmationAnswers.contains(expected[1]), "\(expected)")
        let hints: [RecognitionHint] = [.confirmation, .grammar(grammar), .dictation, .grammar(grammar),
                                        .grammar(grammar + "\n"), .confirmation, .grammar(grammar), .dictation]
        for hint in hints {
            let request = try await Self.recognizer.makeRequest(locale: Reference.english, options: .init(hint: hint),
                                                                newStream: true)
            let text = try await Self.decode(audio, with: request)
            switch hint {
            case .dictation: #expect(text == expected[0], "dictation is back on the language model")
            case .confirmation: #expect(text == expected[1], "the confirmation search is the one asked for")
            case .grammar: #expect(text == expected[2], "the user grammar is the one asked for")
            }
        }
    }
}
