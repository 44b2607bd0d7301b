public import Dialogue
import Foundation

/// The room's REPL: the dialogue's terminal loop (readline or plain lines) feeding a
/// `RoomController`.
///
/// ```swift
/// try await RoomRepl(room: room, options: .detect(historyFile: path)).run()
/// ```
public final class RoomRepl: Sendable {
    private let room: RoomCoordinator
    private let options: ReplOptions

    /// Creates a REPL for a room that has not been started.
    public init(room: RoomCoordinator, options: ReplOptions) {
        self.room = room
        self.options = options
    }

    /// Starts the room and runs until `:quit`, Ctrl-D, end of input, SIGTERM or SIGHUP
    /// (acted on at once, whatever input waits).
    /// Throws only when the terminal cannot be set up.
    public func run() async throws {
        let (inputs, continuation) = AsyncStream.makeStream(of: ReplInput.self)
        let mailbox = try Mailbox()
        let (editor, input): (any LineEditor, any TerminalInput)
        if options.interactive {
            let readline = ReadlineEditor(mailbox: mailbox, inputs: continuation, completer: Completer(source: CompletionSource()),
                                          historyFile: options.historyFile, bracketedPaste: options.bracketedPaste)
            (editor, input) = (readline, readline)
        } else {
            (editor, input) = (PlainEditor(), PlainInput(inputs: continuation))
        }
        let controller = RoomController(room: room, editor: editor, interactive: options.interactive, style: options.style)
        let loop = try TerminalLoop(input: input, mailbox: mailbox, inputs: continuation,
                                    onTerminate: { Task { await controller.terminate() } })
        loop.start()
        await controller.beginRendering()
        let rendering = Task { await controller.renderEvents() }
        await room.start()
        for await item in inputs {
            guard await controller.handle(item) else { break }
        }
        await room.stop()
        await rendering.value
        await loop.stop()
    }
}
