import Dialogue
import ParleyCore
import ParleyCoreFakes
import Testing

/// Languages the language heard does not tell apart well enough (`parley-bench pairs`): the
/// floor follows the turn order, and the conversation says so once, at its start.
@Suite("Languages too alike by ear")
struct CloseLanguagesTests {
    static let portuguese = LocaleTag("pt-PT")!

    private func rig(_ configure: @escaping (inout DialogueConfiguration) -> Void = { _ in }) -> TestRig {
        TestRig(recognizes: [TestRig.spanish, Self.portuguese], configure: {
            $0.sideA.locale = TestRig.spanish
            $0.sideB.locale = Self.portuguese
            configure(&$0)
        })
    }

    @Test("es/pt with barge-in on one microphone: one line at the start, and no request in both languages while the turn is spoken")
    func turnOrderWithBargeIn() async throws {
        let rig = rig { $0.bargeIn = true }
        try await rig.start()
        try await rig.recorder.waitFor("the notice") { _ in rig.recorder.messages.contains { $0.contains("turn order") } }
        let notices = rig.recorder.messages.filter { $0.hasPrefix("the floor follows the turn order") }
        #expect(notices.count == 1 && notices[0].contains("es-ES from pt-PT") && notices[0].contains("95 %"), "\(rig.recorder.messages)")
        try await rig.speak([[.speechStarted(at: 0.1)], [TestRig.final("¿dónde está la estación?")]])
        let turns = try await rig.turns(1)
        #expect(turns[0].side == .a && turns[0].assignment?.basis == .turnOrder)
        try await rig.recorder.waitForState(.listening(.b))
        #expect(rig.recognizer.pairRequests.isEmpty, "nothing listened in both languages")
        #expect(rig.recognizer.requests.last?.locale == Self.portuguese, "B's turn is heard in B's language")
    }

    @Test("es/pt with hands-free turns: refused in one line saying why; turns alternate")
    func handsFreeRefused() async throws {
        let rig = rig { $0.turnTaking = .auto }
        try await rig.start()
        try await rig.recorder.waitFor("the notice") { _ in
            rig.recorder.messages.contains { $0.hasPrefix("hands-free turns are off: Parley tells es-ES from pt-PT by ear") }
        }
        #expect(rig.recognizer.pairRequests.isEmpty && rig.recognizer.requests.last?.locale == TestRig.spanish)
        await rig.coordinator.setTurnTaking(.auto)
        try await rig.recorder.waitFor("the second notice") { _ in
            rig.recorder.messages.filter { $0.hasPrefix("hands-free turns are off") }.count == 2
        }
    }

    @Test("en/es, which the language tells apart, says nothing of the turn order")
    func distinctLanguagesSayNothing() async throws {
        let rig = TestRig(configure: { $0.bargeIn = true })
        try await rig.start()
        try await rig.recorder.waitForState(.listening(.a))  // after any notice of the start
        #expect(!rig.recorder.messages.contains { $0.contains("turn order") })
    }
}
