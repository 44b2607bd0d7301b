public import Dialogue
import Foundation

/// How the REPL talks to the person.
public struct ReplOptions: Sendable {
    /// Readline with a prompt and a status line (standard input and output are a
    /// terminal), or plain lines.
    public var interactive: Bool
    /// Colours, or none.
    public var style: ConsoleStyle
    /// Where readline keeps history between sessions; nil keeps none (`--no-history`).
    public var historyFile: String?
    /// Readline's bracketed paste; tests turn it off so no escape codes reach captured output.
    public var bracketedPaste: Bool

    /// Creates options.
    public init(interactive: Bool, style: ConsoleStyle, historyFile: String?, bracketedPaste: Bool = true) {
        self.interactive = interactive
        self.style = style
        self.historyFile = historyFile
        self.bracketedPaste = bracketedPaste
    }

    /// Interactive when standard input and output are terminals; colours per `ConsoleStyle.detect`.
    public static func detect(historyFile: String?) -> ReplOptions {
        let interactive = isatty(STDIN_FILENO) == 1 && isatty(STDOUT_FILENO) == 1
        return ReplOptions(interactive: interactive,
                           style: interactive ? ConsoleStyle.detect() : ConsoleStyle(colours: false),
                           historyFile: interactive ? historyFile : nil)
    }

    /// The history file under the XDG state directory.
    public static func historyPath(stateDirectory: String) -> String { "\(stateDirectory)/history" }
}

/// The REPL of a dialogue or a room: a terminal thread (readline or plain lines) feeding a
/// `ReplController`, which drives the conversation and shows its events.
///
/// ```swift
/// try await Repl(coordinator: coordinator, services: services, options: .detect(historyFile: path)).run()
/// try await Repl(room: room, options: .detect(historyFile: path)).run()
/// ```
public final class Repl: Sendable {
    private let conversation: any Conversation
    private let services: ReplServices
    private let options: ReplOptions

    /// A REPL for a dialogue whose coordinator has not been started.
    public init(coordinator: TurnCoordinator, services: ReplServices, options: ReplOptions) {
        self.conversation = coordinator
        self.services = services
        self.options = options
    }

    /// A REPL for a room that has not been started.
    public init(room: RoomCoordinator, options: ReplOptions) {
        self.conversation = room
        self.services = ReplServices()
        self.options = options
    }

    /// Starts the conversation and runs until `:quit`, Ctrl-D, end of input, SIGTERM or SIGHUP
    /// (acted on at once, whatever input waits).
    /// Throws only when the terminal cannot be set up.
    public func run() async throws {
        let (inputs, continuation) = AsyncStream.makeStream(of: ReplInput.self)
        let mailbox = try Mailbox()
        let (editor, input) = makeEditor(mailbox: mailbox, inputs: continuation)
        let controller = ReplController(conversation: conversation, editor: editor, services: services,
                                        interactive: options.interactive, style: options.style)
        let loop = try TerminalLoop(input: input, mailbox: mailbox, inputs: continuation,
                                    onTerminate: { Task { await controller.terminate() } })
        loop.start()
        await controller.beginRendering()
        let rendering = Task { await controller.renderEvents() }
        await conversation.start()
        for await item in inputs {
            guard await controller.handle(item) else { break }
        }
        await conversation.stop()
        await rendering.value
        await loop.stop()
    }

    private func makeEditor(mailbox: Mailbox, inputs: AsyncStream<ReplInput>.Continuation)
        -> (any LineEditor, any TerminalInput) {
        guard options.interactive else { return (PlainEditor(), PlainInput(inputs: inputs)) }
        let editor = ReadlineEditor(mailbox: mailbox, inputs: inputs, completer: Completer(source: services.completion),
                                    historyFile: options.historyFile, bracketedPaste: options.bracketedPaste)
        return (editor, editor)
    }
}
