import Foundation
import Dialogue
import DialogueTestSupport
import ParleyCoreFakes
import ParleyCore
import Synchronization
import Testing

@Suite("Turn transitions")
struct TurnTransitionTests {
    @Test func startListensOnSideAWithTheEndpointWindow() async throws {
        let rig = TestRig(configure: { $0.endpointMilliseconds = 350 })
        try await rig.start()
        #expect(await rig.coordinator.state == .listening(.a))
        #expect(rig.recognizer.requests.map(\.locale) == [TestRig.english])
        #expect(rig.recognizer.requests.first?.options.endpointMilliseconds == 350)
        #expect(rig.audio.isListening)
    }

    @Test func aSpokenTurnGoesThroughEveryStateAndBackToListening() async throws {
        let rig = TestRig()
        try await rig.start()
        try await rig.speak([[.speechStarted(at: 0.1)], [.partial("where is")],
                             [.speechEnded(at: 0.9), TestRig.final("where is the station")]])
        let entry = try #require(try await rig.turns(1).first)
        try await rig.recorder.waitForState(.listening(.b))
        #expect(rig.recorder.states == [.listening(.a), .recognizing(.a), .translating(.a), .speaking(.b), .listening(.b)])
        #expect(entry.side == .a && entry.input == .speech && entry.text == "where is the station")
        #expect(entry.translation == FakeTranslator.translation(of: "where is the station", to: TestRig.spanish))
        #expect(rig.recorder.events.contains(.partial(.a, "where is")))
        #expect(rig.synthesizer.utterances.map(\.voice) == [.locale(TestRig.spanish)])
        #expect(rig.recognizer.requests.map(\.locale) == [TestRig.english, TestRig.spanish])
    }

    @Test func captureIsGatedWhileSpeakingAndReopensWhenDrained() async throws {
        let rig = TestRig()
        try await rig.start()
        rig.audio.holdPlayback(true)
        await rig.coordinator.submitTyped("good morning")
        try await rig.waitUntil("drain called") { rig.audio.log.contains("drain") }
        #expect(await rig.coordinator.state == .speaking(.b))
        #expect(!rig.audio.feed(), "a chunk captured while speaking must be dropped")
        rig.audio.releasePlayback()
        try await rig.recorder.waitForState(.listening(.b))
        let log = rig.audio.log
        let firstEnqueue = try #require(log.firstIndex(of: "enqueue"))
        let drained = try #require(log.firstIndex(of: "drained"))
        #expect(log[..<firstEnqueue].last(where: { $0.hasSuffix("Listening") }) == "stopListening")
        #expect(log[drained + 1] == "startListening", "listening resumes right after the drain: \(log)")
        try await rig.waitUntil("gate open") { rig.audio.isListening }
        #expect(rig.audio.feed())
    }

    @Test func typedInputTakesOverFromListening() async throws {
        let rig = TestRig()
        try await rig.start()
        try await rig.speak([[.speechStarted(at: 0.1)], [.partial("uh")]])
        await rig.coordinator.submitTyped("  the bill, please ")
        let entry = try #require(try await rig.turns(1).first)
        #expect(entry.input == .typed && entry.text == "the bill, please" && entry.confidence == nil)
        #expect(entry.times.speechStart == nil)
        #expect(rig.recognizer.cancelCount == 1)
    }

    @Test func theEndOfTurnKeyFinishesRecognitionAtOnce() async throws {
        let rig = TestRig()
        try await rig.start()
        try await rig.speak([[.speechStarted(at: 0.2)], [.partial("good morning")]])
        try await rig.recorder.waitFor("the partial") { $0.contains(.partial(.a, "good morning")) }
        await rig.coordinator.endTurn()
        let entry = try #require(try await rig.turns(1).first)
        #expect(entry.text == "good morning" && entry.input == .speech)
        #expect(entry.times.speechEnd != nil && entry.times.speechStart != nil)
        #expect(rig.recorder.states.prefix(3) == [.listening(.a), .recognizing(.a), .translating(.a)])
    }

    @Test func manualModeWaitsForTheKeyToListen() async throws {
        let rig = TestRig(configure: { $0.mode = .manual })
        try await rig.start()
        #expect(await rig.coordinator.state == .idle(.a))
        #expect(!rig.audio.isListening)
        await rig.coordinator.endTurn()
        #expect(await rig.coordinator.state == .listening(.a))
        try await rig.speak([[.partial("yes")]])
        try await rig.recorder.waitFor("the partial") { $0.contains(.partial(.a, "yes")) }
        await rig.coordinator.endTurn()
        try await rig.turns(1)
        try await rig.recorder.waitForState(.idle(.b))
    }

    @Test func aSideWithoutASpeechModelIsTypedOnlyOnEachTurn() async throws {
        let rig = TestRig(recognizes: [TestRig.english])
        let reasons = try await typedOnlyReasonsOfBAfterATurnOfA(rig)
        #expect(reasons.count == 1)
        #expect(reasons.first ?? nil == "no speech model for es-ES (installed: en-US)")
        await rig.coordinator.endTurn()
        try await rig.recorder.waitForMessage("side B is typed-only")
        await rig.coordinator.submitTyped("hola")
        let turns = try await rig.turns(2)
        #expect(turns[1].side == .b && turns[1].targetLocale == TestRig.english)
    }

    @Test func aSideNoneOfManyModelsHearsIsSaidWithTheirCount() async throws {
        // Whisper's languages are many: the reason counts them instead of listing them all.
        let whisperLike = ["en", "af", "am", "ar", "de", "fr", "it", "nl", "pt"].map { LocaleTag($0)! }
        let reasons = try await typedOnlyReasonsOfBAfterATurnOfA(TestRig(recognizes: whisperLike))
        #expect(reasons.first ?? nil == "no speech model for es-ES (installed: 9 locales and languages)")
    }

    /// Starts `rig`, types a line for A, and returns the typed-only reasons of B's turns so far.
    private func typedOnlyReasonsOfBAfterATurnOfA(_ rig: TestRig) async throws -> [String?] {
        try await rig.start()
        await rig.coordinator.submitTyped("hello")
        try await rig.turns(1)
        try await rig.recorder.waitForState(.idle(.b))
        return rig.recorder.events.compactMap { event -> String?? in
            if case let .turnStarted(side, _, reason) = event, side == .b { return reason } else { return nil }
        }
    }

    @Test func swapGivesTheTurnToTheOtherSide() async throws {
        let rig = TestRig()
        try await rig.start()
        await rig.coordinator.swap()
        #expect(await rig.coordinator.state == .listening(.b))
        #expect(rig.recognizer.requests.map(\.locale) == [TestRig.english, TestRig.spanish])
        #expect(rig.recognizer.cancelCount == 1)
        await rig.coordinator.submitTyped("hola")
        let entry = try #require(try await rig.turns(1).first)
        #expect(entry.side == .b && entry.locale == TestRig.spanish)
    }

    @Test func typedLinesDuringATurnWaitAndGoToTheNextSide() async throws {
        let rig = TestRig(configure: { $0.usesMicrophone = false })
        try await rig.start()
        rig.translator.hold()
        await rig.coordinator.submitTyped("one")
        await rig.coordinator.submitTyped("two")
        rig.translator.release()
        let turns = try await rig.turns(2)
        #expect(turns.map(\.text) == ["one", "two"])
        #expect(turns.map(\.side) == [.a, .b])
        #expect(turns.map(\.turn) == [1, 2])
    }

    @Test func correctionOffersTheTextAndItsAlternatives() async throws {
        let rig = TestRig(configure: { $0.correction = true })
        try await rig.start()
        try await rig.speak([[TestRig.final("wear is the station", alternatives: ["where is the station"])]])
        try await rig.recorder.waitForState(.correcting(.a))
        #expect(rig.recorder.events.contains(.correctionOffered(side: .a, text: "wear is the station",
                                                                alternatives: ["where is the station"])))
        await rig.coordinator.submitTyped("2")
        let entry = try #require(try await rig.turns(1).first)
        #expect(entry.text == "where is the station" && entry.input == .speech)
    }

    @Test func anEditedCorrectionReplacesTheRecognizedText() async throws {
        let rig = TestRig(configure: { $0.correction = true })
        try await rig.start()
        try await rig.speak([[TestRig.final("a table for to")]])
        try await rig.recorder.waitForState(.correcting(.a))
        await rig.coordinator.submitTyped("a table for two")
        #expect(try await rig.turns(1).first?.text == "a table for two")
    }

    @Test func mutePrintsTranslationsWithoutSpeaking() async throws {
        let rig = TestRig(configure: { $0.speaksTranslations = false })
        try await rig.start()
        await rig.coordinator.submitTyped("hello")
        let entry = try #require(try await rig.turns(1).first)
        #expect(rig.synthesizer.utterances.isEmpty)
        #expect(!rig.recorder.states.contains(.speaking(.b)))
        #expect(entry.times.speakStart == nil && entry.times.speakEnd == nil)
    }

    @Test func endOfInputFinishesTheTurnInProgressAndEnds() async throws {
        let rig = TestRig(configure: { $0.usesMicrophone = false })
        try await rig.start()
        rig.translator.hold()
        await rig.coordinator.submitTyped("last words")
        async let stopped: Void = rig.coordinator.finishAndStop()
        try await rig.waitUntil("translation asked") { rig.translator.translated == ["last words"] }
        rig.translator.release()
        await stopped
        await rig.recorder.waitForTheEnd()
        #expect(rig.recorder.finishedTurns.map(\.text) == ["last words"])
        #expect(await rig.coordinator.state == .ended)
    }

    @Test func endOfInputFinishesSpeechAlreadyHeard() async throws {
        let rig = TestRig()
        try await rig.start()
        try await rig.speak([[.speechStarted(at: 0)], [.partial("thank you")]])
        try await rig.recorder.waitFor("the partial") { $0.contains(.partial(.a, "thank you")) }
        await rig.coordinator.finishAndStop()
        await rig.recorder.waitForTheEnd()
        #expect(rig.recorder.finishedTurns.map(\.text) == ["thank you"])
    }
}

extension TurnTransitionTests {
    @Test func stoppingShutsTheEnginesDownOnce() async throws {
        let count = ShutdownCount()
        let rig = TestRig(stages: { $0.shutdown = { count.increment() } })
        try await rig.start()
        await rig.coordinator.stop()
        await rig.coordinator.stop()
        #expect(count.value == 1)
        #expect(await rig.coordinator.state == .ended)
        #expect(!rig.audio.isListening)
    }
}

final class ShutdownCount: Sendable {
    private let count = Mutex(0)
    var value: Int { count.withLock { $0 } }
    func increment() { count.withLock { $0 += 1 } }
}
