import Dialogue
import DialogueTestSupport
import Foundation
import ParleyCore
import ParleyCoreFakes
import Testing

/// Simultaneous interpretation on fake stages: clauses translated and spoken while the side
/// is still listening, the turn written once, Ctrl-C, typed input, and the backlog's rule.
@Suite("Simultaneous interpretation")
struct SimultaneousTests {
    static func clause(_ text: String, from start: Double, tail: Bool = false) -> RecognizedClause {
        var time = start
        let words = text.split(separator: " ").map { word in
            defer { time += 0.4 }
            return RecognizedWord(text: String(word), start: time, end: time + 0.3, confidence: 0.9)
        }
        return RecognizedClause(words: words, committedAt: time + 0.5, isTail: tail)
    }

    static let first = clause("The train leaves at nine.", from: 0.5)
    static let second = clause("It is always late", from: 3)
    static let tail = clause("on Mondays.", from: 4.6, tail: true)

    private func simultaneousRig() async throws -> TestRig {
        let rig = TestRig(configure: { $0.simultaneous = true })
        try await rig.start()
        try await rig.waitUntil("A listens") { rig.audio.isListening }
        return rig
    }

    private func spoken(_ rig: TestRig) -> [String] { rig.synthesizer.utterances.map(\.text) }

    @Test("each clause is translated and spoken while A still speaks; the endpoint adds the tail; the turn is written once with every clause")
    func clausesWhileSpeaking() async throws {
        let rig = try await simultaneousRig()
        #expect(rig.recognizer.requests.first?.options.commitPolicy == .localAgreement)
        rig.recognizer.script([[.speechStarted(at: 0.4), .clause(Self.first)]])
        rig.audio.feed()
        let firstTranslation = FakeTranslator.translation(of: Self.first.text, to: TestRig.spanish)
        try await rig.waitUntil("the first clause is spoken") { spoken(rig) == [firstTranslation] }
        #expect(rig.recorder.finishedTurns.isEmpty)
        #expect(rig.recorder.states.last == .interpreting(.a), "A speaks and is interpreted: \(rig.recorder.states)")
        #expect(rig.audio.isListening, "A is still heard while the clause plays")
        rig.recognizer.script([[.clause(Self.second)]])
        rig.audio.feed()
        try await rig.waitUntil("the second clause is spoken") { spoken(rig).count == 2 }

        let text = [Self.first, Self.second, Self.tail].map(\.text).joined(separator: " ")
        rig.recognizer.script([[.speechEnded(at: 5.6), .final(RecognitionResult(
            text: text, confidence: 0.9, isFinal: true, clauses: [Self.first, Self.second, Self.tail]))]])
        rig.audio.feed()
        let turns = try await rig.turns(1)
        #expect(rig.translator.translated == [Self.first.text, Self.second.text, Self.tail.text], "each clause once")
        let states = rig.recorder.states
        let from = try #require(states.firstIndex(of: .interpreting(.a)))
        #expect(Array(states[from...].prefix(4)) == [.interpreting(.a), .recognizing(.a), .speaking(.b), .listening(.b)]
                || Array(states[from...].prefix(3)) == [.interpreting(.a), .recognizing(.a), .listening(.b)], "\(states)")
        #expect(spoken(rig) == [Self.first, Self.second, Self.tail].map { FakeTranslator.translation(of: $0.text, to: TestRig.spanish) })
        #expect(turns[0].text == text)
        #expect(turns[0].translation == spoken(rig).joined(separator: " "))
        let clauses = try #require(turns[0].clauses)
        #expect(clauses.map(\.text) == [Self.first.text, Self.second.text, Self.tail.text])
        #expect(clauses.map(\.isTail) == [false, false, true])
        #expect(clauses.allSatisfy { $0.speakStart != nil && $0.translated != nil && (1...InterpretationPace.fastestSpeed).contains($0.speed) })
        #expect(turns[0].jsonLine.contains("\"simultaneous\":true,\"clauses\":[{\"text\":\"The train leaves at nine.\""), "\(turns[0].jsonLine)")
        try await rig.recorder.waitForState(.listening(.b))
    }

    @Test("on the loudspeaker the shared microphone hears, a clause plays quieter by --duck-db while A still holds the floor, and the tail spoken after A yields at full level",
          arguments: [DialogueConfiguration.defaultDuckDecibels, 0, 20])
    func clausesDuckedWhileTheSpeakerHoldsTheFloor(decibels: Double) async throws {
        let rig = TestRig(configure: { $0.simultaneous = true; $0.duckDecibels = decibels })
        try await rig.start()
        try await rig.waitUntil("A listens") { rig.audio.isListening }
        rig.recognizer.script([[.speechStarted(at: 0.4), .clause(Self.first)]])
        rig.audio.feed()
        try await rig.waitUntil("the first clause is spoken") { spoken(rig).count == 1 }
        let text = [Self.first, Self.tail].map(\.text).joined(separator: " ")
        rig.recognizer.script([[.speechEnded(at: 5.6), .final(RecognitionResult(
            text: text, confidence: 0.9, isFinal: true, clauses: [Self.first, Self.tail]))]])
        rig.audio.feed()
        _ = try await rig.turns(1)
        let volumes = rig.synthesizer.utterances.map(\.volume)
        try #require(volumes.count == 2, "\(volumes)")
        // −10 dB is 0.316 in amplitude, −20 dB 0.1.
        #expect(abs(volumes[0] - pow(10, -decibels / 20)) < 1e-9, "the clause A spoke on after: \(volumes)")
        #expect(volumes[1] == 1, "the tail, spoken once A has yielded: \(volumes)")
    }

    @Test("on the microphone both sides share, the request is told the other side's language, and each clause's share of it is written with the clause; with a microphone each, it is not told")
    func clausesRecordTheOtherLanguage() async throws {
        let rig = try await simultaneousRig()
        #expect(rig.recognizer.requests.first?.options.otherLocale == TestRig.spanish)
        var first = Self.first, tail = Self.tail
        (first.otherLanguageShare, tail.otherLanguageShare) = (0.0004, 0.6)
        rig.recognizer.script([[.speechStarted(at: 0.4), .clause(first)]])
        rig.audio.feed()
        try await rig.waitUntil("the first clause is spoken") { spoken(rig).count == 1 }
        rig.recognizer.script([[.speechEnded(at: 5.6), .final(RecognitionResult(
            text: "\(first.text) \(tail.text)", confidence: 0.9, isFinal: true, clauses: [first, tail]))]])
        rig.audio.feed()
        let turns = try await rig.turns(1)
        #expect(turns[0].clauses?.map(\.otherLanguageShare) == [0.0004, 0.6])
        #expect(turns[0].jsonLine.contains("\"tail\":false,\"other_language\":0}") && turns[0].jsonLine.contains("\"tail\":true,\"other_language\":0.6}"),
                "\(turns[0].jsonLine)")

        let audioB = FakeAudio()
        let separate = TestRig(configure: { $0.simultaneous = true }, stages: { $0.devices.append(PartyDevices(source: audioB, sink: audioB)) })
        try await separate.start()
        try await separate.waitUntil("A listens") { !separate.recognizer.requests.isEmpty }
        #expect(separate.recognizer.requests.first?.options.otherLocale == nil, "each side's microphone tells whose voice it is")
    }

    @Test("Ctrl-C stops the clause being spoken and drops the rest of the turn")
    func cancel() async throws {
        let rig = try await simultaneousRig()
        rig.audio.holdPlayback(true)
        rig.recognizer.script([[.speechStarted(at: 0.4), .clause(Self.first)]])
        rig.audio.feed()
        try await rig.waitUntil("the first clause is being spoken") { spoken(rig).count == 1 }
        await rig.coordinator.cancel()
        try await rig.recorder.waitForEvent(.cancelled("interpretation"))
        #expect(rig.audio.log.contains("cancelPlayback"))
        rig.recognizer.script([[.clause(Self.second)]])
        rig.audio.feed()
        try await Task.sleep(for: .milliseconds(100))
        #expect(spoken(rig).count == 1, "nothing after Ctrl-C is spoken")
        #expect(rig.translator.translated == [Self.first.text])
        #expect(rig.recorder.finishedTurns.isEmpty, "the clause cut short was not spoken to the end: no turn is written")
    }

    @Test("the audio server lost during a simultaneous turn: what was committed is the turn, written once")
    func serverLost() async throws {
        let (events, continuation) = AsyncStream.makeStream(of: AudioEvent.self)
        let rig = TestRig(configure: { $0.simultaneous = true }, audioEvents: events)
        try await rig.start()
        try await rig.waitUntil("A listens") { rig.audio.isListening }
        rig.recognizer.script([[.speechStarted(at: 0.4), .clause(Self.first)]])
        rig.audio.feed()
        try await rig.waitUntil("the first clause is spoken") { spoken(rig).count == 1 }
        continuation.yield(.serverLost("connection refused"))
        let turns = try await rig.turns(1)
        #expect(turns[0].text == Self.first.text)
        #expect(turns[0].clauses?.map(\.text) == [Self.first.text])
        try await rig.recorder.waitForState(.idle(.b))
        #expect(rig.recorder.finishedTurns.count == 1)
    }

    @Test("a line typed while A's clauses are being spoken waits for the turn in progress")
    func typedWaits() async throws {
        let rig = try await simultaneousRig()
        rig.audio.holdPlayback(true)
        rig.recognizer.script([[.speechStarted(at: 0.4), .clause(Self.first)]])
        rig.audio.feed()
        try await rig.waitUntil("the first clause is being spoken") { spoken(rig).count == 1 }
        await rig.coordinator.submitTyped("hola")
        try await rig.recorder.waitFor("the line waits") { events in
            events.contains { if case let .notice(text) = $0 { text.contains("'hola' waits") } else { false } }
        }
        #expect(rig.audio.isListening, "A's turn goes on")
        rig.audio.releasePlayback()
        rig.audio.holdPlayback(false)
    }

    @Test(":simultaneous on is refused, in one sentence, where the microphone would hear the speaker")
    func refused() async throws {
        let rig = TestRig(configure: { $0.simultaneousUnavailable = "it needs echo cancellation" })
        try await rig.start()
        await rig.coordinator.setSimultaneous(true)
        try await rig.recorder.waitForEvent(.error("simultaneous interpretation stays off: it needs echo cancellation"))
        #expect(await rig.coordinator.configuration.simultaneous == false)
        #expect(rig.recognizer.requests.allSatisfy { $0.options.commitPolicy == nil })
    }

    @Test("turn by turn, requests commit nothing early, and the endpoint ends the turn")
    func offByDefault() async throws {
        let rig = TestRig()
        try await rig.start()
        try await rig.waitUntil("A listens") { rig.audio.isListening }
        #expect(rig.recognizer.requests.first?.options.commitPolicy == nil)
        #expect(rig.recognizer.requests.first?.options.endpointMilliseconds == 500)
    }

    @Test("a simultaneous turn ends at the yield silence, 1500 ms by default, not at the endpoint: a pause ends a clause, not the floor")
    func theYieldSilenceEndsTheTurn() async throws {
        let rig = try await simultaneousRig()
        #expect(rig.recognizer.requests.first?.options.endpointMilliseconds == 1500, "the default yield silence")
        let atTheEndpoint = TestRig(configure: { $0.simultaneous = true; $0.yieldMilliseconds = nil })
        try await atTheEndpoint.start()
        try await atTheEndpoint.waitUntil("A listens") { atTheEndpoint.audio.isListening }
        #expect(atTheEndpoint.recognizer.requests.first?.options.endpointMilliseconds == 500, "none: the endpoint")
        let chosen = TestRig(configure: { $0.simultaneous = true; $0.yieldMilliseconds = 2200 })
        try await chosen.start()
        try await chosen.waitUntil("A listens") { chosen.audio.isListening }
        #expect(chosen.recognizer.requests.first?.options.endpointMilliseconds == 2200)
        let shorter = TestRig(configure: { $0.simultaneous = true; $0.endpointMilliseconds = 900; $0.yieldMilliseconds = 600 })
        try await shorter.start()
        try await shorter.waitUntil("A listens") { shorter.audio.isListening }
        #expect(shorter.recognizer.requests.first?.options.endpointMilliseconds == 900, "never shorter than the endpoint")
    }

    @Test("a listener behind by more than the backlog hears the next clauses faster, up to 1.5 times")
    func backlogSpeed() {
        #expect(InterpretationPace.speed(forLag: 0.8) == 1)
        #expect(InterpretationPace.speed(forLag: InterpretationPace.backlogSeconds) == 1)
        #expect(abs(InterpretationPace.speed(forLag: InterpretationPace.backlogSeconds + 0.1) - 1.1) < 1e-9)
        #expect(abs(InterpretationPace.speed(forLag: InterpretationPace.backlogSeconds + InterpretationPace.secondsPerSpeedStep + 0.05) - 1.2) < 1e-9)
        #expect(InterpretationPace.speed(forLag: 30) == InterpretationPace.fastestSpeed)
        // On the 0…1 rate scale (0.5 normal, 1 four times normal): 1.5 times normal is 0.5 + 0.5 / 3 × 0.5.
        #expect(abs(InterpretationPace.rate(0.5, fasterBy: 1.5) - (0.5 + 0.5 / 3 * 0.5)) < 1e-9)
        #expect(InterpretationPace.rate(0.5, fasterBy: 1) == 0.5)
    }
}
