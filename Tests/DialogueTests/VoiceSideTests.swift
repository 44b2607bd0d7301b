import Dialogue
import DialogueTestSupport
import Foundation
import ParleyCore
import ParleyCoreFakes
import Testing

/// Hands-free turns where both readings are the same short words ("no"): the voice's pitch,
/// learned from what each side's language gave it, gives them their side where the two
/// voices lie apart; otherwise the turn order does, as before.
@Suite("The voice gives the same words their side")
struct VoiceSideTests {
    typealias Turns = HandsFreeTurnTests

    /// One utterance: 0.6 s of a voice at `hertz` on the shared microphone, ending in `final`.
    static func say(_ rig: TestRig, _ final: RecognitionEvent, hertz: Double) async throws {
        let voice = VoicedSound.samples(hertz, seconds: 0.15)
        let script: [[RecognitionEvent]] = [[.speechStarted(at: 0.05)], [], [], [.speechEnded(at: 0.55), final]]
        rig.recognizer.script(script)
        for _ in script {
            try await rig.waitUntil("the gate is open") { rig.audio.isListening }
            rig.audio.feed(PCMChunk(format: .recognition, samples: voice))
        }
    }

    /// A's two sentences and B's two, each given by its language, in A's voice at `a` Hz and
    /// B's at `b`; then A says "no" where the turn order expects B.
    static func conversation(a: Double, b: Double) async throws -> (TestRig, TranscriptEntry, [DialogueEvent]) {
        let rig = TestRig(configure: { $0.turnTaking = .auto })
        try await rig.start()
        let sentences: [(DialogueSide, String)] = [(.a, "good morning"), (.b, "buenos días"), (.a, "where is the station"),
                                                   (.b, "está allí")]
        for (index, (side, text)) in sentences.enumerated() {
            let englishFirst = rig.recognizer.pairRequests.last!.first == Turns.english
            try await say(rig, side == .a ? Turns.englishSpoken(text, englishFirst: englishFirst)
                              : Turns.spanishSpoken(text, englishFirst: englishFirst), hertz: side == .a ? a : b)
            try await rig.turns(index + 1)
            try await rig.waitUntil("listening again") { rig.recognizer.pairRequests.count == index + 2 }
        }
        // After B, the turn order expects A; A's sentence then has it, and "no" is expected of B.
        try await say(rig, Turns.englishSpoken("thank you", englishFirst: true), hertz: a)
        try await rig.turns(5)
        try await rig.waitUntil("listening again") { rig.recognizer.pairRequests.count == 6 }
        #expect(rig.recognizer.pairRequests.last!.first == Turns.spanish, "B is expected after A")
        try await say(rig, Turns.heard(english: "No.", -0.4, spanish: "No.", -0.4, englishFirst: false), hertz: a)
        let entry = try await rig.turns(6)[5]
        return (rig, entry, rig.recorder.events)
    }

    @Test func aSteadyVoiceApartGivesTheSameWordsToItsSide() async throws {
        let (_, entry, events) = try await Self.conversation(a: 110, b: 220)
        #expect(entry.side == .a && entry.text == "No.")
        #expect(entry.assignment?.basis == .voice)
        #expect(events.contains { if case .sideAssigned(.a, _, _, false, .voice) = $0 { true } else { false } })
    }

    @Test func voicesTooCloseLeaveTheSameWordsToTheTurnOrder() async throws {
        let (_, entry, _) = try await Self.conversation(a: 120, b: 130)
        #expect(entry.side == .b && entry.assignment?.basis == .turnOrder)
    }

    @Test("a flip moves what the voice learned", arguments: [false, true])
    func aFlipMovesWhatTheVoiceLearned(flips: Bool) async throws {
        let rig = TestRig(configure: { $0.turnTaking = .auto })
        try await rig.start()
        // A at 110 Hz; then an English reading in B's voice, which the language gives A while B's
        // voice is not yet known: it was B's, and B flips it.
        try await Self.say(rig, Self.reading("hello", of: .a, rig), hertz: 110)
        try await rig.turns(1)
        try await rig.waitUntil("listening again") { rig.recognizer.pairRequests.count == 2 }
        try await Self.say(rig, Self.reading("see you", of: .a, rig), hertz: 223)
        try await rig.turns(2)
        try await rig.waitUntil("listening again") { rig.recognizer.pairRequests.count == 3 }
        if flips {
            await rig.coordinator.flip()
            try await rig.turns(3)
            try await rig.waitUntil("listening again") { rig.recognizer.pairRequests.count == 4 }
        }
        let before = rig.recorder.finishedTurns.count
        for (index, (side, text, hertz)) in [(DialogueSide.a, "me too", 114.0), (.b, "gracias", 225)].enumerated() {
            try await Self.say(rig, Self.reading(text, of: side, rig), hertz: hertz)
            try await rig.turns(before + index + 1)
            try await rig.waitUntil("listening again") { rig.recognizer.pairRequests.count == before + index + 2 }
        }
        try await Self.say(rig, Self.sameWords(rig), hertz: 112)
        let answer = try await rig.turns(before + 3).last!
        if flips {
            #expect(answer.side == .a && answer.assignment?.basis == .voice, "flipped, the stretch is B's: B's voice is known")
        } else {
            #expect(answer.assignment?.basis == .turnOrder, "B's voice was heard once: it does not tell yet")
        }
    }

    /// `text` as `side` says it, read in both languages in the order the turn order asks.
    static func reading(_ text: String, of side: DialogueSide, _ rig: TestRig) -> RecognitionEvent {
        let englishFirst = rig.recognizer.pairRequests.last!.first == Turns.english
        return side == .a ? Turns.englishSpoken(text, englishFirst: englishFirst) : Turns.spanishSpoken(text, englishFirst: englishFirst)
    }

    /// "No.", the same in both languages, in the order the turn order asks.
    static func sameWords(_ rig: TestRig) -> RecognitionEvent {
        Turns.heard(english: "No.", -0.4, spanish: "No.", -0.4,
                    englishFirst: rig.recognizer.pairRequests.last!.first == Turns.english)
    }
}
