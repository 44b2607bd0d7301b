public import Dialogue
import Foundation
import ParleyCore

/// What a person did at the keyboard (or what standard input delivered).
public enum ReplInput: Sendable, Equatable {
    /// A line: typed input, a `:` command, or empty (the end-of-turn key).
    case line(String)
    /// Ctrl-D, or the end of standard input.
    case endOfInput
    /// Ctrl-C.
    case interrupt
    /// SIGTERM, or SIGHUP (the terminal closed).
    case terminate
    /// A line of standard input whose bytes are not UTF-8 text (a pipe fed Latin-1, say).
    case notText
}

/// The REPL's logic, apart from the terminal: renders the conversation's events through a
/// `LineEditor` and hands it the input, for a dialogue (typed turns, the end-of-turn key,
/// `:` commands) or a room (`@N text`, `:as N`, `:parties`).
///
/// On a terminal an input line applies at once; on a pipe each waits until the conversation
/// is ready for it and its events so far are shown, so that lines and their answers keep
/// their order.
public actor ReplController {
    private let conversation: any Conversation
    private let editor: any LineEditor
    private let services: ReplServices
    private var renderer: EventRenderer
    /// Whether `renderEvents()` is showing the conversation's events, and how many it has shown.
    private var rendering = false
    private var renderedEvents = 0
    private var renderWaiters: [(count: Int, continuation: CheckedContinuation<Void, Never>)] = []
    /// A signal ended the conversation (`terminate()`).
    private var terminated = false

    /// A controller of a dialogue. `interactive` is true on a terminal: an empty line is the
    /// end-of-turn key and commands apply at once.
    public init(coordinator: TurnCoordinator, editor: any LineEditor, services: ReplServices,
                interactive: Bool, style: ConsoleStyle) {
        self.init(conversation: coordinator, editor: editor, services: services, interactive: interactive, style: style)
    }

    /// A controller of a room; on a terminal (`interactive`) lines apply at once, on a pipe each
    /// waits until what the lines before it set off has been spoken.
    public init(room: RoomCoordinator, editor: any LineEditor, interactive: Bool, style: ConsoleStyle) {
        self.init(conversation: room, editor: editor, services: ReplServices(), interactive: interactive, style: style)
    }

    init(conversation: any Conversation, editor: any LineEditor, services: ReplServices, interactive: Bool, style: ConsoleStyle) {
        self.conversation = conversation
        self.editor = editor
        self.services = services
        renderer = EventRenderer(interactive: interactive, style: style)
    }

    /// Shows the conversation's events until they end. Call `beginRendering()` first, so that
    /// lines handled before this task runs already wait for the events before them.
    public func renderEvents() async {
        rendering = true
        await show(conversation)
        rendering = false
        let waiters = renderWaiters
        renderWaiters = []
        waiters.forEach { $0.continuation.resume() }
    }

    /// Marks that `renderEvents()` will show the conversation's events.
    public func beginRendering() {
        rendering = true
    }

    /// SIGTERM or SIGHUP arrived: the conversation ends now (speech stops, what was in progress
    /// is written), whatever input is being handled; later input is not taken.
    public func terminate() async {
        terminated = true
        await conversation.stop()
    }

    /// Handles one input; returns false when the REPL should leave.
    public func handle(_ input: ReplInput) async -> Bool {
        guard !terminated else { return false }
        switch input {
        case let .line(raw):
            await settleIfPiped()
            guard !terminated else { return false }
            return perform(await conversation.answer(raw.trimmingCharacters(in: .whitespaces), in: context))
        case .endOfInput:
            if renderer.interactive { await conversation.stop() } else { await conversation.finishAndStop() }
            return false
        case .interrupt:
            return perform(await conversation.interrupt())
        case .terminate:
            await conversation.stop()
            return false
        case .notText:
            await settleIfPiped()
            return perform([.error("a line of the input is not UTF-8 text and was not taken; \(TextInput.conversionHint)")])
        }
    }

    private var context: LineContext {
        LineContext(interactive: renderer.interactive, services: services, typingAs: renderer.typingAs)
    }

    /// Shows or does what the conversation answered; false when the REPL should leave.
    private func perform(_ answers: [LineAnswer]) -> Bool {
        for answer in answers {
            switch answer {
            case let .line(text): editor.printLine(text)
            case let .note(text): editor.perform(renderer.line(text, .dim))
            case let .error(text): editor.perform(renderer.error(text))
            case let .typeAs(party):
                renderer.type(as: party)
                editor.setPrompt(renderer.prompt)
            case .leave: return false
            }
        }
        return true
    }

    private func show(_ conversation: some Conversation) async {
        for await event in conversation.events {
            for action in event.actions(in: &renderer) { editor.perform(action) }
            eventRendered()
        }
    }

    private func eventRendered() {
        renderedEvents += 1
        let due = renderWaiters.filter { $0.count <= renderedEvents }
        renderWaiters.removeAll { $0.count <= renderedEvents }
        due.forEach { $0.continuation.resume() }
    }

    /// On a pipe, returns once the conversation is ready for the next line and every event it
    /// has emitted so far is shown, so that what this controller prints comes after them.
    private func settleIfPiped() async {
        guard !renderer.interactive else { return }
        await conversation.waitForPipedLine()
        guard rendering else { return }
        let emitted = await conversation.emittedEvents
        guard renderedEvents < emitted else { return }
        await withCheckedContinuation { renderWaiters.append((emitted, $0)) }
    }
}
