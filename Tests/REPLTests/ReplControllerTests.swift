import Foundation
import Dialogue
import DialogueTestSupport
import ParleyCoreFakes
import ParleyCore
import REPL
import Synchronization
import Testing

@Suite("REPL controller")
struct ReplControllerTests {
    static let english = LocaleTag("en-US")!
    static let spanish = LocaleTag("es-ES")!

    final class Rig: Sendable {
        let audio = FakeAudio()
        let recognizer = FakeRecognizer(locales: [english, spanish])
        let coordinator: TurnCoordinator
        let editor = RecordingEditor()
        let controller: ReplController
        let recorder: EventRecorder

        init(interactive: Bool = true, services: ReplServices = ReplServices()) {
            coordinator = TurnCoordinator(
                configuration: DialogueConfiguration(sideA: SideSettings(locale: english), sideB: SideSettings(locale: spanish)),
                stages: ConversationStages(source: audio, sink: audio, recognizer: recognizer,
                                         translator: FakeTranslator(), synthesizer: FakeSynthesizer()))
            controller = ReplController(coordinator: coordinator, editor: editor, services: services,
                                        interactive: interactive, style: ConsoleStyle(colours: false))
            recorder = EventRecorder(coordinator.events)
        }

        func send(_ line: String) async -> Bool { await controller.handle(.line(line)) }
    }

    @Test func aTypedLineIsATurnAndAnEmptyLineIsTheKey() async throws {
        let rig = Rig()
        await rig.coordinator.start()
        rig.recognizer.script([[.partial("good night")]])
        // Listening is announced before the gate opens; a chunk fed before that is dropped.
        try await rig.recorder.waitFor("the gate is open") { _ in rig.audio.isListening }
        #expect(rig.audio.feed())
        try await rig.recorder.waitForEvent(.partial(.a, "good night"))
        #expect(await rig.send(""))
        try await rig.recorder.waitFor("a turn") { _ in rig.recorder.finishedTurns.count == 1 }
        #expect(rig.recorder.finishedTurns.first?.input == .speech)
        #expect(await rig.send("buenas noches"))
        try await rig.recorder.waitFor("two turns") { _ in rig.recorder.finishedTurns.count == 2 }
        #expect(rig.recorder.finishedTurns.last?.side == .b)
    }

    @Test func commandsReachTheCoordinator() async throws {
        let rig = Rig()
        await rig.coordinator.start()
        _ = await rig.send(":swap")
        #expect(await rig.coordinator.state == .listening(.b))
        _ = await rig.send(":a fr-FR")
        #expect(await rig.coordinator.configuration.sideA.locale == LocaleTag("fr-FR"))
        _ = await rig.send(":rate b 0.8")
        #expect(await rig.coordinator.configuration.sideB.rate == 0.8)
        _ = await rig.send(":mode manual")
        #expect(await rig.coordinator.configuration.mode == .manual)
        _ = await rig.send(":correct on")
        #expect(await rig.coordinator.configuration.correction)
        #expect(await rig.send(":quit") == false)
        #expect(await rig.coordinator.state == .ended)
    }

    @Test func badCommandsAndLocalesPrintOneError() async throws {
        let rig = Rig()
        await rig.coordinator.start()
        _ = await rig.send(":swpa")
        _ = await rig.send(":b klingon")
        #expect(rig.editor.lines.contains("error: unknown command ':swpa'; did you mean :swap? (:help lists them)"))
        #expect(rig.editor.lines.contains("error: 'klingon' is not a locale such as fr-FR"))
        #expect(await rig.coordinator.configuration.sideB.locale == Self.spanish)
    }

    @Test func dictionaryAndLanguagesGoToTheCallersHandlers() async throws {
        let calls = ArgumentLog()
        let rig = Rig(services: ReplServices(languages: { "LANGUAGE TABLE" },
                                             dictionary: { calls.append($0); return "added tomato" }))
        await rig.coordinator.start()
        _ = await rig.send(":dict add en tomato təˈmɑːtoʊ")
        _ = await rig.send(":languages")
        #expect(calls.entries == [["add", "en", "tomato", "təˈmɑːtoʊ"]])
        #expect(rig.editor.lines.suffix(2) == ["added tomato", "LANGUAGE TABLE"])
    }

    @Test func ctrlCCancelsAndStays() async throws {
        let rig = Rig()
        await rig.coordinator.start()
        #expect(await rig.controller.handle(.interrupt))
        #expect(await rig.coordinator.state == .idle(.a))
    }

    @Test func endOfInputOnAPipeFinishesTheTurnAndLeaves() async throws {
        let rig = Rig(interactive: false)
        await rig.coordinator.start()
        _ = await rig.send("last line")
        #expect(await rig.controller.handle(.endOfInput) == false)
        await rig.recorder.waitForTheEnd()
        #expect(rig.recorder.finishedTurns.map(\.text) == ["last line"])
        #expect(await rig.coordinator.state == .ended)
    }

    @Test func sigtermLeaves() async throws {
        let rig = Rig()
        await rig.coordinator.start()
        #expect(await rig.controller.handle(.terminate) == false)
        #expect(await rig.coordinator.state == .ended)
    }
}

/// Arguments a handler was called with.
final class ArgumentLog: Sendable {
    private let recorded = Mutex<[[String]]>([])
    var entries: [[String]] { recorded.withLock { $0 } }
    func append(_ arguments: [String]) { recorded.withLock { $0.append(arguments) } }
}
