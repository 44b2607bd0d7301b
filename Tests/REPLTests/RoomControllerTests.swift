import Dialogue
import Foundation
import ParleyCore
import ParleyCoreFakes
import REPL
import Testing

/// The room REPL's lines on a room of fakes: `@N text`, `:as N`, `:parties`, and what each
/// event looks like on a pipe.
@Suite("Room REPL")
struct RoomControllerTests {
    static let locales = [LocaleTag("en-US")!, LocaleTag("fr-FR")!, LocaleTag("es-ES")!]

    /// A controller on a pipe (each line waits for the one before it to be spoken) over a
    /// room of three typed-only parties.
    private func controller() async -> (ReplController, RecordingEditor, RoomCoordinator) {
        let devices = Self.locales.map { _ in PartyDevices(sink: FakeAudio()) }
        let room = RoomCoordinator(locales: Self.locales, stages: ConversationStages(devices: devices, translator: FakeTranslator(),
                                                                                     synthesizer: FakeSynthesizer()))
        let editor = RecordingEditor()
        let controller = ReplController(room: room, editor: editor, interactive: false, style: ConsoleStyle(colours: false))
        await controller.beginRendering()
        Task { await controller.renderEvents() }
        await room.start()
        return (controller, editor, room)
    }

    @Test("@N TEXT says the text as party N; every other party's translation gets a line")
    func atParty() async {
        let (controller, editor, _) = await controller()
        #expect(await controller.handle(.line("@2 Bonjour")))
        #expect(await controller.handle(.line(":parties")))
        let lines = editor.lines
        #expect(lines.contains("2 fr-FR: Bonjour (typed)"), "\(lines)")
        #expect(lines.contains("→ 1 en-US: \(FakeTranslator.translation(of: "Bonjour", to: Self.locales[0]))"), "\(lines)")
        #expect(lines.contains("→ 3 es-ES: \(FakeTranslator.translation(of: "Bonjour", to: Self.locales[2]))"), "\(lines)")
        #expect(lines.suffix(3) == ["party 1: en-US, here", "party 2: fr-FR, here", "party 3: es-ES, here"])
        #expect(!(await controller.handle(.line(":quit"))))
    }

    @Test("plain text goes to party 1 until :as chooses another")
    func typingAs() async {
        let (controller, editor, _) = await controller()
        _ = await controller.handle(.line("Hello"))
        _ = await controller.handle(.line(":as 3"))
        _ = await controller.handle(.line("Hola"))
        _ = await controller.handle(.line(":parties"))
        #expect(editor.lines.contains("1 en-US: Hello (typed)") && editor.lines.contains("3 es-ES: Hola (typed)"), "\(editor.lines)")
        #expect(editor.lines.contains("typing as party 3 (es-ES)"))
        _ = await controller.handle(.endOfInput)
    }

    @Test("a bad line is refused in one sentence, and nothing is said",
          arguments: [("@4 Hello", "there is no party 4 (parties 1–3)"), ("@x Hello", "write @N TEXT"), ("@2", "@2 needs a text"),
                      ("@2Bonjour", "write @N TEXT"), (":as 0", ":as takes a party's number, 1–3"), (":as", ":as takes"),
                      (":flip", ":flip is not a room command")])
    func refused(line: String, expected: String) async {
        let (controller, editor, _) = await controller()
        #expect(await controller.handle(.line(line)))
        _ = await controller.handle(.line(":parties"))
        let errors = editor.lines.filter { $0.hasPrefix("error: ") }
        #expect(errors.count == 1 && errors[0].contains(expected), "\(editor.lines)")
        #expect(!editor.lines.contains { $0.contains("(typed)") })
        _ = await controller.handle(.line(":quit"))
    }
}
