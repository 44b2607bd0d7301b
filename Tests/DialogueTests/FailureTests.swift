import Dialogue
import DialogueTestSupport
import ParleyCoreFakes
import ParleyCore
import Testing

@Suite("Engine failures are reported and the dialogue goes on")
struct FailureTests {
    @Test func aRecognizerThatCannotStartLeavesTypedInput() async throws {
        let rig = TestRig()
        rig.recognizer.fail("makeRequest", with: FakeFailure("model file is corrupt"))
        try await rig.start()
        #expect(await rig.coordinator.state == .idle(.a))
        try await rig.recorder.waitForMessage("recognition failed: model file is corrupt")
        await rig.coordinator.submitTyped("hello")
        #expect(try await rig.turns(1).map(\.text) == ["hello"])
    }

    @Test func aRecognizerFailingOnAudioIsReported() async throws {
        let rig = TestRig()
        try await rig.start()
        rig.recognizer.fail("append", with: FakeFailure("decoder crashed"))
        rig.audio.feed()
        try await rig.recorder.waitForState(.idle(.a))
        try await rig.recorder.waitForMessage("recognition failed: decoder crashed")
        #expect(!rig.audio.isListening)
        rig.recognizer.fail("append", with: nil)
        await rig.coordinator.endTurn()
        #expect(await rig.coordinator.state == .listening(.a))
    }

    /// Chunks are fed while an earlier one is decoded: one that reaches the request after the
    /// final it gave an earlier chunk is past the turn, not a failure of it.
    @Test func aChunkAfterTheFinalIsNoFailure() async throws {
        let rig = TestRig()
        try await rig.start()
        rig.recognizer.script([[.speechStarted(at: 0.1)]])
        rig.audio.feed()
        try await rig.recorder.waitFor("speech started") { $0.contains { if case .speechStarted = $0 { true } else { false } } }
        rig.recognizer.fail("append", with: RecognitionError.requestReused)
        rig.audio.feed()
        try await rig.recorder.waitFor("the second chunk appended") { _ in rig.recognizer.appendCount >= 2 }
        #expect(await rig.coordinator.state == .listening(.a))
        rig.recognizer.fail("append", with: nil)
        rig.recognizer.script([[.partial("where is"), .speechEnded(at: 0.8), .final(RecognitionResult(text: "where is the station", isFinal: true))]])
        rig.audio.feed()
        #expect(try await rig.turns(1).map(\.text) == ["where is the station"])
        #expect(!rig.recorder.events.contains { if case .error = $0 { true } else { false } }, "\(rig.recorder.events)")
    }

    @Test func aRecognizerFailingToFinishIsReported() async throws {
        let rig = TestRig()
        try await rig.start()
        rig.recognizer.fail("finish", with: FakeFailure("final pass failed"))
        await rig.coordinator.endTurn()
        #expect(await rig.coordinator.state == .idle(.a))
        try await rig.recorder.waitForMessage("recognition failed: final pass failed")
    }

    @Test func nothingHeardListensAgain() async throws {
        let rig = TestRig()
        try await rig.start()
        rig.recognizer.finishWith(RecognitionResult(text: "", isFinal: true))
        await rig.coordinator.endTurn()
        #expect(await rig.coordinator.state == .listening(.a))
        try await rig.recorder.waitForMessage(RecognitionError.emptyRecognition.description)
    }

    @Test func aTooLongUtteranceKeepsWhatWasRecognized() async throws {
        let rig = TestRig()
        try await rig.start()
        let partial = RecognitionResult(text: "and so on and so on", isFinal: false)
        rig.recognizer.fail("append", with: RecognitionError.utteranceTooLong(limit: 60, partial: partial))
        rig.audio.feed()
        #expect(try await rig.turns(1).map(\.text) == ["and so on and so on"])
    }

    @Test func aTranslatorFailureKeepsTheTurnWithTheSameSide() async throws {
        let rig = TestRig()
        try await rig.start()
        rig.translator.fail(with: FakeFailure("apertium died twice"))
        await rig.coordinator.submitTyped("hello")
        try await rig.recorder.waitForState(.listening(.a))
        try await rig.recorder.waitForMessage("translation failed: apertium died twice")
        #expect(rig.recorder.finishedTurns.isEmpty)
        rig.translator.fail(with: nil)
        await rig.coordinator.submitTyped("hello")
        #expect(try await rig.turns(1).map(\.side) == [.a])
    }

    @Test func aSynthesizerFailureStillFinishesTheTurn() async throws {
        let rig = TestRig()
        try await rig.start()
        rig.synthesizer.fail(with: FakeFailure("voice data missing"))
        await rig.coordinator.submitTyped("hello")
        let entry = try #require(try await rig.turns(1).first)
        try await rig.recorder.waitForMessage("synthesis failed: voice data missing")
        #expect(entry.times.speakEnd == nil)
        try await rig.recorder.waitForState(.listening(.b))
    }

    @Test func aSpeakerFailureStillFinishesTheTurn() async throws {
        let rig = TestRig()
        try await rig.start()
        rig.audio.fail("enqueue", with: FakeFailure("stream is gone"))
        await rig.coordinator.submitTyped("hello")
        try await rig.turns(1)
        try await rig.recorder.waitForMessage("audio failed: stream is gone")
        try await rig.recorder.waitForState(.listening(.b))
    }

    @Test func aMicrophoneThatCannotOpenLeavesTypedInput() async throws {
        let rig = TestRig()
        rig.audio.fail("startListening", with: FakeFailure("source not found"))
        try await rig.start()
        #expect(await rig.coordinator.state == .idle(.a))
        try await rig.recorder.waitForMessage("audio failed: source not found")
        await rig.coordinator.submitTyped("hello")
        try await rig.turns(1)
    }

    @Test func aLostServerStopsListeningUntilItIsBack() async throws {
        let (events, continuation) = AsyncStream.makeStream(of: AudioEvent.self)
        let rig = TestRig(audioEvents: events)
        try await rig.start()
        continuation.yield(.serverLost("connection refused"))
        try await rig.recorder.waitForState(.idle(.a))
        try await rig.recorder.waitForMessage("audio failed: connection refused")
        await rig.coordinator.endTurn()
        try await rig.recorder.waitForMessage("audio server is gone")
        continuation.yield(.reconnected)
        try await rig.recorder.waitForState(.listening(.a))
    }

    @Test("the audio server lost while A speaks: what was heard of A is A's turn, translated and written; then B types until it is back")
    func aLostServerKeepsWhatWasHeard() async throws {
        let (events, continuation) = AsyncStream.makeStream(of: AudioEvent.self)
        let rig = TestRig(audioEvents: events)
        try await rig.start()
        try await rig.waitUntil("A listens") { rig.audio.isListening }
        rig.recognizer.script([[.speechStarted(at: 0.2), .partial("where is the")]])
        rig.recognizer.finishWith(RecognitionResult(text: "where is the", confidence: 0.7, isFinal: true))
        rig.audio.feed()
        try await rig.recorder.waitFor("A speaks") { events in events.contains(.partial(.a, "where is the")) }
        continuation.yield(.serverLost("connection refused"))
        let turns = try await rig.turns(1)
        #expect(turns[0].side == .a && turns[0].text == "where is the")
        #expect(rig.synthesizer.utterances.isEmpty, "the server is gone: the translation is printed, not spoken")
        try await rig.recorder.waitForState(.idle(.b))
        #expect(await rig.coordinator.typedOnlyReason(for: .b) == "the audio server is gone")
    }

    @Test func withoutEnginesTypedLinesAreShownAndTranslationIsUnavailable() async throws {
        let coordinator = TurnCoordinator(
            configuration: DialogueConfiguration(sideA: SideSettings(locale: TestRig.english),
                                                 sideB: SideSettings(locale: TestRig.spanish)),
            stages: .none)
        let recorder = EventRecorder(coordinator.events)
        await coordinator.start()
        #expect(await coordinator.state == .idle(.a))
        await coordinator.submitTyped("hello")
        try await recorder.waitFor("the failure") { _ in recorder.messages.contains { $0.hasPrefix("translation is unavailable in this session") } }
        await coordinator.waitUntilReady()
        #expect(await coordinator.state == .idle(.a))
        #expect(recorder.messages.prefix(2) == ["speech output is unavailable; translations are printed only",
                                                "translation is unavailable: what is said is shown but not translated"])
        #expect(recorder.finishedTurns.isEmpty)
    }
}
