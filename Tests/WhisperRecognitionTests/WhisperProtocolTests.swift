import Foundation
import Locales
import ParleyCore
import PocketSphinxRecognition
@testable import WhisperRecognition
import TestSupport
import Testing

/// The typed worker protocol: golden frames both sides must write byte for byte (made by
/// `worker/tests/make_golden.py` from `worker/tests/golden_values.py`, whose values these
/// are), the version check at start, and the round trips a final result costs.
@Suite("Whisper worker protocol", .serialized)
struct WhisperProtocolTests {
    static func golden(_ name: String) throws -> Data {
        try Data(contentsOf: Fixtures.repository.appendingPathComponent("worker/tests/golden/\(name).bin"))
    }

    static let payload: [Float] = [0.5, -1.25, 2, 0]
    static let requests: [(String, WhisperCall.Frame, [Float])] = [
        ("transcribe-request", .init(id: 7, call: .transcribe(.init(
            language: "es", prompt: "¿Señor Dashwood?", beam: 2, alternatives: 1, words: true, window: .short,
            secondOpinion: true, sharesOf: ["es", "en"], features: .init(mels: 2, frames: 2, audioSeconds: 0.02)))), payload),
        ("pair-request", .init(id: 8, call: .pair(.init(
            languages: ["en", "es"], prompt: nil, window: .full, secondOpinion: false,
            features: .init(mels: 2, frames: 2, audioSeconds: 1.5)))), payload),
        ("alternative-request", .init(id: 9, call: .alternative(.init(of: 7, text: "ill-disposed", words: false))), []),
        ("ping-request", .init(id: 10, call: .ping), []),
    ]

    static let transcription = WhisperTranscription(
        text: "He was not an ill-disposed man.", silent: false, averageLogProbability: -0.25, confidence: 0.7788,
        noSpeechProbability: 0.0125, alternatives: ["He was not an ill-sposed man."],
        words: [.init(text: "He", start: 0, end: 0.32, confidence: 0.9912),
                .init(text: "ill-disposed", start: 1.04, end: 1.5, confidence: 0.5)],
        window: .full, secondOpinion: true, decodes: [.init(window: .short, silent: true), .init(window: .full, silent: false)],
        seconds: ["decode": 0.125, "encode": 0.5], audioSeconds: 2.75, languageShares: [0.03125, 0.96875])
    static let pair = WhisperPairAnswer(
        hypotheses: [.init(language: "en", text: "Hello.", silent: false, skipped: false, averageLogProbability: -0.5,
                           confidence: 0.6065, languageProbability: 0.75, noSpeechProbability: 0.125),
                     .init(language: "es", text: "", silent: true, skipped: true, averageLogProbability: -100,
                           confidence: 0, languageProbability: 0.25, noSpeechProbability: 0.125)],
        window: .short, secondOpinion: false, decodes: [.init(window: .short, silent: false)],
        seconds: ["detect": 0.03125], audioSeconds: 1.5)
    static let ready = WhisperReady(ready: true, protocol: 5, languages: ["en", "es"], mels: 80, multilingual: true,
                                    verified: true, loadSeconds: 1.25, pid: 4242)

    @Test("every request kind encodes to exactly its golden frame and decodes back to an equal value")
    func goldenRequests() throws {
        for (name, request, payload) in Self.requests {
            let golden = try Self.golden(name)
            #expect(try WhisperFrames.request(request, payload: payload) == golden, "\(name)")
            let length = WhisperFrames.length(golden)
            let header = golden.subdata(in: 4..<(4 + length))
            #expect(try JSONDecoder().decode(WhisperCall.Frame.self, from: header) == request, "\(name)")
            #expect(WhisperFrames.length(golden.dropFirst(4 + length)) == payload.count * 4, "\(name)")
        }
    }

    @Test("every answer kind, and both ready messages, encode to exactly their golden frames and decode back")
    func goldenAnswers() throws {
        try Self.check("transcription-answer", WhisperReply(id: 7, .answer(Self.transcription)))
        try Self.check("pair-answer", WhisperReply(id: 8, .answer(Self.pair)))
        try Self.check("pong-answer", WhisperReply(id: 10, .answer(WhisperPong())))
        try Self.check("refusal-answer",
                       WhisperReply<WhisperTranscription>(id: 11, .refused("the transcribe request lacks 'language'")))
        try Self.check("ready", Self.ready)
        try Self.check("not-ready", WhisperReady(ready: false, protocol: 5, error: "no model file at /nowhere/model.bin"))
        #expect(WhisperFrames.protocolVersion == 5)
    }

    static func check<Message: Codable & Equatable>(_ name: String, _ message: Message) throws {
        let golden = try Self.golden(name)
        #expect(try WhisperFrames.answer(message) == golden, "\(name): \(String(decoding: golden.dropFirst(4), as: UTF8.self))")
        #expect(try JSONDecoder().decode(Message.self, from: golden.dropFirst(4)) == message, "\(name)")
    }

    // MARK: On the fake worker (logic only: the real one runs in the other Whisper suites)

    /// A `WhisperWorker` on `Tests/Fixtures/fake-worker.py` in `mode` (`other-protocol`, `words`).
    static func fake(_ mode: String, in directory: URL) throws -> WhisperWorker {
        try mode.write(to: directory.appendingPathComponent("mode"), atomically: true, encoding: .utf8)
        let launch = WhisperWorker.Launch(python: "/usr/bin/python3", script: WhisperFakeWorkerTests.fake,
                                          model: WhisperModelFolder(path: directory.path))
        return WhisperWorker(launch: launch)
    }

    @Test("a worker of another protocol version is refused with one sentence that says what to run")
    func otherVersionRefused() async throws {
        let directory = try Fixtures.temporaryDirectory("parley-fake-worker")
        defer { try? FileManager.default.removeItem(at: directory) }
        let worker = try Self.fake("other-protocol", in: directory)
        await #expect {
            try await worker.start()
        } throws: { error in
            let script = WhisperFakeWorkerTests.fake
            return (error as? RecognitionError)?.description == "the Whisper worker of this parley (protocol 5; \(script) "
                + "speaks protocol 99) is not installed; reinstall parley and its worker together with `make install`, "
                + "then `make models`"
        }
        await worker.shutdown()
    }

    @Test("a final result with a word the list lacks costs at most two round trips, even when the alternative is refused")
    func refusedAlternativeCostsNoThirdTrip() async throws {
        let directory = try Fixtures.temporaryDirectory("parley-fake-worker")
        defer { try? FileManager.default.removeItem(at: directory) }
        let worker = try Self.fake("words", in: directory)
        var tuning = WhisperRecognizer.Tuning()
        (tuning.speculative, tuning.partialResults) = (false, false)
        let lexicon = WordLexicon(parsing: "he\nwas\nan\nill\ndisposed\nman\n", path: "test")
        let whisper = WhisperRecognizer(worker: worker, detector: SphinxSpeechDetector.make, tuning: tuning,
                                        lexicon: { _ in lexicon })
        try await whisper.start()
        let result = try await whisper.recognizeUtterance([Int16](repeating: 100, count: 16_000), locale: LocaleTag("en-US")!)
        #expect(await worker.roundTrips == 2, "transcribe, then the alternative; the full window is not asked as well")
        #expect(result.text == "He was an ill-sposed man.", "the refused alternative leaves the first reading")
        await worker.shutdown()
    }

    @Test("speech the short window calls silent is decoded again in the full window within the same round trip")
    func silenceCostsOneRoundTrip() async throws {
        let directory = try Fixtures.temporaryDirectory("parley-silence-trips")
        defer { try? FileManager.default.removeItem(at: directory) }
        // No word list: every second opinion is the worker's own (silence, or said twice).
        let installation = WhisperInstallation.discover(shipped: Fixtures.dataDirectory, models: DataDirectories.defaultModels(),
                                                        dataHome: DataDirectories.personalData())
        var tuning = WhisperRecognizer.Tuning()
        (tuning.speculative, tuning.partialResults) = (false, false)
        let whisper = WhisperRecognizer(worker: WhisperWorker(launch: try installation.launch()),
                                        detector: SphinxSpeechDetector.make, tuning: tuning, lexicon: { _ in nil })
        try await whisper.start()
        var asked = 0
        for (voice, speed, text) in NearSilenceClips.clips {
            let samples = try WhisperWorkerTests.espeakSamples(text, voice: voice, speed: speed, in: directory)
            for pair in [false, true] {
                let (trips, opinions) = (await whisper.worker.roundTrips, whisper.secondOpinionCount)
                if pair {
                    _ = try? await whisper.recognizePair(samples, first: LocaleTag("en")!, second: LocaleTag("es")!)
                } else {
                    _ = try? await whisper.recognizeUtterance(samples, locale: LocaleTag("es")!)
                }
                guard whisper.secondOpinionCount > opinions else { continue }
                asked += 1
                #expect(await whisper.worker.roundTrips == trips + 1, "\(voice) at \(speed), pair \(pair): \(text)")
            }
        }
        #expect(asked >= 2, "the clips the short window calls silent")
        await whisper.worker.shutdown()
    }
}
