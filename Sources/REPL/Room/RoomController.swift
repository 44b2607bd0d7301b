public import Dialogue
import Foundation
import ParleyCore

/// The room REPL's logic, apart from the terminal: shows the room's events and turns lines
/// into typed utterances (`@N text`, or plain text for the party `:as N` chose) and commands.
public actor RoomController {
    private let room: RoomCoordinator
    private let editor: any LineEditor
    private var renderer: RoomRenderer
    private var renderedEvents = 0
    private var rendering = false
    private var renderWaiters: [(count: Int, continuation: CheckedContinuation<Void, Never>)] = []
    /// A signal ended the room (`terminate()`).
    private var terminated = false

    /// The room's commands, as `:help` shows them.
    public static let help = """
        @N TEXT     say TEXT as party N (typed): it is translated for and spoken to everyone else
        TEXT        say TEXT as the party :as chose (party 1 at first)
        :as N       type as party N from now on
        :parties    every party: language, where they are reached, here or away
        :quit       end the room (Ctrl-D too)
        """

    /// Creates a controller; on a terminal (`interactive`) lines apply at once, on a pipe each
    /// waits until what the lines before it set off has been spoken.
    public init(room: RoomCoordinator, editor: any LineEditor, interactive: Bool, style: ConsoleStyle) {
        self.room = room
        self.editor = editor
        renderer = RoomRenderer(interactive: interactive, style: style)
    }

    /// Marks that `renderEvents()` will show the room's events.
    public func beginRendering() { rendering = true }

    /// Shows the room's events until they end.
    public func renderEvents() async {
        rendering = true
        for await event in room.events { render(event) }
        rendering = false
        renderWaiters.forEach { $0.continuation.resume() }
        renderWaiters = []
    }

    /// Shows one event.
    public func render(_ event: RoomEvent) {
        for action in renderer.render(event) { editor.perform(action) }
        renderedEvents += 1
        let due = renderWaiters.filter { $0.count <= renderedEvents }
        renderWaiters.removeAll { $0.count <= renderedEvents }
        due.forEach { $0.continuation.resume() }
    }

    /// SIGTERM or SIGHUP arrived: the room ends now (speech stops), whatever input is being
    /// handled; later input is not taken.
    public func terminate() async {
        terminated = true
        await room.stop()
    }

    /// Handles one input; returns false when the REPL should leave.
    public func handle(_ input: ReplInput) async -> Bool {
        guard !terminated else { return false }
        switch input {
        case let .line(raw):
            return await handleLine(raw.trimmingCharacters(in: .whitespaces))
        case .endOfInput:
            if renderer.interactive { await room.stop() } else { await room.finishAndStop() }
            return false
        case .interrupt:
            editor.printLine(renderer.style.paint("(Ctrl-C does not end a room: :quit or Ctrl-D does)", .dim))
            return true
        case .terminate:
            await room.stop()
            return false
        case .notText:
            await settleIfPiped()
            editor.printLine(renderer.style.paint(
                "error: a line of the input is not UTF-8 text and was not taken; \(TextInput.conversionHint)", .red))
            return true
        }
    }

    private func handleLine(_ line: String) async -> Bool {
        await settleIfPiped()
        guard !terminated else { return false }
        guard !line.isEmpty else { return true }
        if line.hasPrefix(":") { return await command(line) }
        if line.hasPrefix("@") {
            let rest = line.dropFirst()
            let digits = rest.prefix { $0.isNumber }
            let text = rest.dropFirst(digits.count)
            guard let party = Int(digits), text.first?.isWhitespace == true || text.isEmpty else {
                return error("write @N TEXT, with N a party's number (1–\(room.locales.count)), as in @2 Bonjour")
            }
            guard room.locales.indices.contains(party - 1) else {
                return error("there is no party \(party) (parties 1–\(room.locales.count))")
            }
            guard !text.trimmingCharacters(in: .whitespaces).isEmpty else { return error("@\(party) needs a text to say") }
            await room.type(String(text), as: party)
            return true
        }
        await room.type(line, as: renderer.typingAs)
        return true
    }

    private func command(_ line: String) async -> Bool {
        let words = line.split(separator: " ", omittingEmptySubsequences: true).map(String.init)
        switch words[0] {
        case ":quit", ":q", ":exit":
            await room.stop()
            return false
        case ":as":
            guard words.count == 2, let party = Int(words[1]), room.locales.indices.contains(party - 1) else {
                return error(":as takes a party's number, 1–\(room.locales.count)")
            }
            renderer.typingAs = party
            editor.setPrompt(renderer.prompt)
            editor.printLine(renderer.style.paint("typing as party \(party) (\(room.locales[party - 1]))", .dim))
        case ":parties", ":who":
            for (index, locale) in room.locales.enumerated() {
                let away = await room.isAway(index + 1)
                editor.printLine("party \(index + 1): \(locale), \(away ? "away" : "here")")
            }
        case ":help", ":h", ":?":
            editor.printLine(Self.help)
        default:
            return error("\(words[0]) is not a room command (:help lists them)")
        }
        return true
    }

    private func error(_ text: String) -> Bool {
        editor.printLine(renderer.style.paint("error: \(text)", .red))
        return true
    }

    /// On a pipe, a line waits until what came before it has been spoken and shown.
    private func settleIfPiped() async {
        guard !renderer.interactive else { return }
        await room.waitUntilSettled()
        guard rendering else { return }
        let emitted = await room.emittedEvents
        guard renderedEvents < emitted else { return }
        await withCheckedContinuation { renderWaiters.append((emitted, $0)) }
    }
}
