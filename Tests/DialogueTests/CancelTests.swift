import Dialogue
import DialogueTestSupport
import Foundation
import ParleyCoreFakes
import ParleyCore
import Testing

@Suite("Cancel in each state")
struct CancelTests {
    @Test func cancelWhileListeningDropsTheRequestAndWaits() async throws {
        let rig = TestRig()
        try await rig.start()
        await rig.coordinator.cancel()
        #expect(await rig.coordinator.state == .idle(.a))
        #expect(rig.recognizer.cancelCount == 1)
        #expect(!rig.audio.isListening)
        try await rig.recorder.waitForEvent(.cancelled("listening"))
        await rig.coordinator.endTurn()
        #expect(await rig.coordinator.state == .listening(.a), "the key listens again after a cancel")
    }

    @Test func cancelWhileRecognizingDropsTheUtterance() async throws {
        let rig = TestRig()
        try await rig.start()
        try await rig.speak([[.speechStarted(at: 0)], [.speechEnded(at: 1)]])
        try await rig.recorder.waitForState(.recognizing(.a))
        await rig.coordinator.cancel()
        #expect(await rig.coordinator.state == .idle(.a))
        await rig.coordinator.stop()
        await rig.recorder.waitForTheEnd()
        #expect(rig.recorder.finishedTurns.isEmpty)
    }

    @Test func cancelWhileCorrectingDropsTheText() async throws {
        let rig = TestRig(configure: { $0.correction = true })
        try await rig.start()
        try await rig.speak([[TestRig.final("hello")]])
        try await rig.recorder.waitForState(.correcting(.a))
        await rig.coordinator.cancel()
        #expect(await rig.coordinator.state == .idle(.a))
        await rig.coordinator.submitTyped("goodbye")
        #expect(try await rig.turns(1).map(\.text) == ["goodbye"])
    }

    @Test func cancelWhileTranslatingDropsTheTurnAndIgnoresTheLateResult() async throws {
        let rig = TestRig()
        try await rig.start()
        rig.translator.hold()
        await rig.coordinator.submitTyped("hello")
        try await rig.waitUntil("translation asked") { !rig.translator.translated.isEmpty }
        await rig.coordinator.cancel()
        #expect(await rig.coordinator.state == .idle(.a))
        rig.translator.release()
        await rig.coordinator.submitTyped("again")
        let turns = try await rig.turns(1)
        #expect(turns.map(\.text) == ["again"])
        #expect(!rig.recorder.events.contains { if case .translation(_, _, let text, _, _) = $0 { text.hasSuffix(" hello") } else { false } })
    }

    @Test func cancelWhileSpeakingStopsAtOnceAndPassesTheTurn() async throws {
        let rig = TestRig()
        try await rig.start()
        rig.audio.holdPlayback(true)
        await rig.coordinator.submitTyped("a long sentence")
        try await rig.recorder.waitForState(.speaking(.b))
        try await rig.waitUntil("drain called") { rig.audio.log.contains("drain") }
        await rig.coordinator.cancel()
        #expect(rig.synthesizer.stopCount == 1)
        #expect(rig.audio.log.contains("cancelPlayback"))
        let entry = try #require(try await rig.turns(1).first)
        #expect(entry.times.speakEnd != nil)
        try await rig.recorder.waitForState(.listening(.b))
        try await rig.recorder.waitForEvent(.cancelled("speaking"))
    }

    @Test func cancelWhileIdleChangesNothing() async throws {
        let rig = TestRig(configure: { $0.mode = .manual })
        try await rig.start()
        await rig.coordinator.cancel()
        #expect(await rig.coordinator.state == .idle(.a))
    }

    /// Ending the conversation (Ctrl-D, SIGTERM, SIGHUP, :quit) while a translation
    /// is spoken stops the speech and writes that turn, as Ctrl-C does.
    @Test(.timeLimit(.minutes(1)))
    func stoppingWhileSpeakingWritesThatTurn() async throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("transcript-\(UUID().uuidString).jsonl").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let rig = TestRig(transcript: try TranscriptWriter(path: path))
        try await rig.start()
        rig.audio.holdPlayback(true)
        await rig.coordinator.submitTyped("a long sentence")
        try await rig.recorder.waitForState(.speaking(.b))
        try await rig.waitUntil("drain called") { rig.audio.log.contains("drain") }
        await rig.coordinator.stop()
        #expect(rig.synthesizer.stopCount == 1)
        let entry = try #require(try await rig.turns(1).first)
        #expect(entry.text == "a long sentence" && entry.times.speakEnd != nil)
        let lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n")
        #expect(lines.count == 1 && lines.first?.contains(#""text":"a long sentence""#) == true)
    }
}
