import Dialogue
import DialogueTestSupport
import Foundation
import ParleyCore
import ParleyCoreFakes
import Testing

/// A microphone and speaker per side (a second `PartyDevices` in `ConversationStages.devices`) on fake stages: each side is
/// heard on its own microphone only and hears its translations on its own speaker.
@Suite("Separate devices per side")
struct SeparateDevicesTests {
    /// A rig whose side B has `audioB` (and `eventsB`) of its own; side A keeps the rig's audio.
    private func rig(_ audioB: FakeAudio, eventsB: AsyncStream<AudioEvent>? = nil,
                     configure: (inout DialogueConfiguration) -> Void = { _ in }) -> TestRig {
        TestRig(configure: configure) { stages in
            stages.devices.append(PartyDevices(source: audioB, sink: audioB, audioEvents: eventsB))
        }
    }

    @Test("A is heard on A's microphone only and B hears the translation on B's speaker; then B on B's, heard on A's")
    func eachSideItsOwn() async throws {
        let audioB = FakeAudio()
        let rig = rig(audioB)
        try await rig.start()
        try await rig.waitUntil("A listens") { rig.audio.isListening }
        #expect(!audioB.isListening, "B's microphone stays closed on A's turn")
        #expect(!audioB.feed(), "nothing B says reaches A's turn")

        rig.recognizer.script([[.speechStarted(at: 0.1), TestRig.final("Where is the station?")]])
        rig.audio.feed()
        let first = try await rig.turns(1)
        #expect(first[0].side == .a && first[0].text == "Where is the station?")
        #expect(!audioB.playedChunks.isEmpty, "the Spanish was played on B's speaker")
        #expect(rig.audio.playedChunks.isEmpty, "nothing was played on A's speaker")

        try await rig.waitUntil("B listens") { audioB.isListening }
        #expect(!rig.audio.isListening, "A's microphone is closed on B's turn")
        let playedToB = audioB.playedChunks.count
        rig.recognizer.script([[.speechStarted(at: 0.1), TestRig.final("A la izquierda.")]])
        audioB.feed()
        let turns = try await rig.turns(2)
        #expect(turns[1].side == .b && turns[1].text == "A la izquierda.")
        #expect(turns.map(\.assignment?.basis) == [.device, .device], "each side is known by its own microphone")
        #expect(!rig.audio.playedChunks.isEmpty, "the English was played on A's speaker")
        #expect(audioB.playedChunks.count == playedToB, "B does not hear its own translation")
    }

    @Test("with a microphone each, a clause is spoken to B while A's microphone stays open, and the yield silence ends A's turn")
    func simultaneousOnTwoDevices() async throws {
        let audioB = FakeAudio()
        let rig = rig(audioB) { $0.simultaneous = true }
        try await rig.start()
        try await rig.waitUntil("A listens") { rig.audio.isListening }
        #expect(rig.recognizer.requests.first?.options.endpointMilliseconds == DialogueConfiguration.defaultYieldMilliseconds,
                "the yield silence ends the turn: B's microphone is not heard on A's turn, and A's next sentence after a pause would be lost")
        let clause = SimultaneousTests.first
        rig.recognizer.script([[.speechStarted(at: 0.4), .clause(clause)]])
        rig.audio.feed()
        try await rig.waitUntil("the clause is played to B") { !audioB.playedChunks.isEmpty }
        #expect(rig.audio.isListening, "A is still heard while B hears the clause")
        #expect(rig.synthesizer.utterances.map(\.volume) == [1], "no microphone hears B's speaker: nothing is ducked")
        #expect(rig.audio.playedChunks.isEmpty)
        #expect(!audioB.log.contains("startListening"), "B's microphone never opened during A's turn")
    }

    @Test("a barge-in is heard on the microphone of the side being spoken to, and holds that side's speaker")
    func bargeInOnTheListenersMicrophone() async throws {
        let audioB = FakeAudio()
        audioB.holdPlayback(true)
        let rig = rig(audioB) { $0.bargeIn = true }
        try await rig.start()
        await rig.coordinator.submitTyped("Where is the station?")
        try await rig.waitUntil("B's microphone opens while B hears the translation") { audioB.isListening }
        #expect(!rig.audio.isListening, "A's microphone stays closed while B is spoken to")
        rig.recognizer.script([[.speechStarted(at: 0.1), TestRig.final("Perdone, no entiendo nada.")]])
        audioB.feed(FakeAudio.personChunk)
        try await rig.recorder.waitFor("B interrupts") { events in
            events.contains { if case .interrupted(.b, _) = $0 { true } else { false } }
        }
        #expect(audioB.log.contains("pausePlayback"), "B's speaker was held")
        #expect(!rig.audio.log.contains("pausePlayback"), "A's speaker was not touched")
        let turns = try await rig.turns(2)
        #expect(turns[1].side == .b && turns[1].text == "Perdone, no entiendo nada.")
    }

    @Test("side B's server lost makes side B typed-only and leaves A heard; back, B is heard again")
    func sideBServerLost() async throws {
        let audioB = FakeAudio()
        let (events, continuation) = AsyncStream.makeStream(of: AudioEvent.self)
        let rig = rig(audioB, eventsB: events)
        try await rig.start()
        try await rig.waitUntil("A listens") { rig.audio.isListening }
        continuation.yield(.serverLost("connection refused"))
        try await rig.recorder.waitFor("side B's loss is said") { events in
            events.contains {
                if case let .error(message) = $0 { message.hasPrefix("side B's audio failed: connection refused") } else { false }
            }
        }
        #expect(rig.audio.isListening, "A is still heard")
        #expect(await rig.coordinator.typedOnlyReason(for: .b) == "side B's audio server is gone")
        #expect(await rig.coordinator.typedOnlyReason(for: .a) == nil)

        await rig.coordinator.submitTyped("Where is the station?")
        try await rig.recorder.waitFor("B's turn, typed") { events in
            events.contains {
                if case let .turnStarted(.b, _, reason) = $0 { reason == "side B's audio server is gone" } else { false }
            }
        }
        #expect(!audioB.isListening)
        continuation.yield(.reconnected)
        try await rig.waitUntil("B is heard again") { audioB.isListening }
        #expect(!rig.audio.isListening)
    }

    @Test(":turns auto with a microphone per side is refused in one line; turns keep alternating")
    func handsFreeRefused() async throws {
        let rig = rig(FakeAudio())
        try await rig.start()
        await rig.coordinator.setTurnTaking(.auto)
        try await rig.recorder.waitForMessage("hands-free turns are off: they tell the sides apart by language on one microphone")
        #expect(await rig.coordinator.configuration.turnTaking == .alternate)
    }
}
