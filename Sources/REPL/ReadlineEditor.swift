@preconcurrency import CReadline
import Foundation

/// The editor readline calls back into; only touched on the terminal thread.
nonisolated(unsafe) private var activeEditor: ReadlineEditor?

/// GNU Readline through its callback interface, driven by the terminal loop.
///
/// Readline is not thread-safe, so every `rl_*` call happens on the terminal
/// thread: the `LineEditor` methods post their work to the mailbox. Lines are
/// printed above the prompt by saving the half-typed line, clearing it,
/// printing, and restoring it (readline has no call for this). A transient
/// status line (level meter, partial result) sits right above the prompt and
/// is rewritten in place.
final class ReadlineEditor: LineEditor, TerminalInput, @unchecked Sendable {  // readline runs only on the terminal thread; other threads post to its mailbox
    private let mailbox: Mailbox
    private let inputs: AsyncStream<ReplInput>.Continuation
    /// Tab completion; read by the completion hook on the terminal thread.
    let completer: Completer
    private let historyFile: String?
    private let bracketedPaste: Bool
    // Terminal-thread state.
    private var prompt = "> "
    private var status: String?
    private var statusShown = false
    private var installed = false

    init(mailbox: Mailbox, inputs: AsyncStream<ReplInput>.Continuation, completer: Completer,
         historyFile: String?, bracketedPaste: Bool) {
        self.mailbox = mailbox
        self.inputs = inputs
        self.completer = completer
        self.historyFile = historyFile
        self.bracketedPaste = bracketedPaste
    }

    // MARK: LineEditor, from any thread

    func printLine(_ text: String) {
        mailbox.post { [self] in redraw(lines: text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init),
                                        status: status) }
    }

    func showStatus(_ text: String?) {
        mailbox.post { [self] in redraw(lines: [], status: text) }
    }

    func setPrompt(_ prompt: String) {
        mailbox.post { [self] in
            self.prompt = prompt
            guard installed else { return }
            rl_set_prompt(prompt)
            rl_redisplay()
        }
    }

    func offerLine(_ text: String) {
        mailbox.post { [self] in
            guard installed else { return }
            rl_replace_line(text, 0)
            rl_point = rl_end
            rl_redisplay()
        }
    }

    // MARK: TerminalInput, on the terminal thread

    func begin() {
        activeEditor = self
        rl_catch_signals = 0
        rl_catch_sigwinch = 0
        rl_readline_name = UnsafePointer(strdup("parley"))
        if !bracketedPaste { rl_variable_bind("enable-bracketed-paste", "off") }
        rl_attempted_completion_function = completionHook
        rl_bind_keyseq(Self.flipKeys, flipHook)
        using_history()
        stifle_history(1000)
        if let historyFile { read_history(historyFile) }
        rl_callback_handler_install(prompt, lineHook)
        installed = true
    }

    func readAvailable() -> Bool {
        guard installed else { return false }
        rl_callback_read_char()
        return installed
    }

    func interrupted() {
        guard installed else { return }
        rl_callback_sigcleanup()
        rl_replace_line("", 0)
        rl_point = 0
        writeAll(STDOUT_FILENO, "^C\r\n")
        statusShown = false
        status = nil
        rl_on_new_line()
        rl_redisplay()
    }

    func resized() {
        if installed { rl_resize_terminal() }
    }

    func end() {
        if installed {
            rl_callback_handler_remove()
            installed = false
            writeAll(STDOUT_FILENO, "\r\n")
        }
        if let historyFile {
            let directory = (historyFile as NSString).deletingLastPathComponent
            try? FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            write_history(historyFile)
            history_truncate_file(historyFile, 1000)
        }
        activeEditor = nil
    }

    /// The key that runs `:flip` without touching the line being typed: Ctrl-X, then F.
    static let flipKeys = "\\C-xf"

    /// The flip key was pressed: `:flip` runs as if typed, the line being typed stays.
    fileprivate func flipPressed() {
        inputs.yield(.line(":flip"))
    }

    /// A line was entered (nil: Ctrl-D on an empty line).
    fileprivate func lineEntered(_ line: UnsafeMutablePointer<CChar>?) {
        statusShown = false
        guard let line else {
            rl_callback_handler_remove()
            installed = false
            writeAll(STDOUT_FILENO, "\r\n")
            inputs.yield(.endOfInput)
            return
        }
        let text = String(cString: line)
        free(line)
        if !text.allSatisfy(\.isWhitespace) { add_history(text) }
        inputs.yield(.line(text))
    }

    /// Prints `lines` above the prompt and the status line below them, keeping
    /// the half-typed line and its cursor position.
    private func redraw(lines: [String], status newStatus: String?) {
        guard installed else {
            lines.forEach { writeAll(STDOUT_FILENO, $0 + "\r\n") }
            return
        }
        let savedPoint = rl_point
        let savedLine = String(cString: rl_line_buffer)
        rl_save_prompt()
        rl_replace_line("", 0)
        rl_redisplay()
        var output = statusShown ? "\u{1B}[1A" : ""
        for line in lines { output += "\r\u{1B}[2K" + line + "\r\n" }
        if let newStatus { output += "\r\u{1B}[2K" + fitted(newStatus) + "\r\n" }
        output += "\r\u{1B}[2K"
        statusShown = newStatus != nil
        status = newStatus
        writeAll(STDOUT_FILENO, output)
        rl_restore_prompt()
        rl_replace_line(savedLine, 0)
        rl_point = savedPoint
        rl_on_new_line()
        rl_redisplay()
    }

    /// The status cut to the terminal's width, so it never wraps (it is rewritten in place).
    private func fitted(_ text: String) -> String {
        var rows: Int32 = 0, columns: Int32 = 0
        rl_get_screen_size(&rows, &columns)
        let width = max(Int(columns) - 1, 10)
        return text.count > width ? String(text.prefix(width - 1)) + "…" : text
    }
}

private let lineHook: @convention(c) (UnsafeMutablePointer<CChar>?) -> Void = { line in
    activeEditor?.lineEntered(line)
}

/// Readline's function for the flip key (`rl_bind_keyseq`).
private let flipHook: @convention(c) (Int32, Int32) -> Int32 = { _, _ in
    activeEditor?.flipPressed()
    return 0
}

/// Completes from the candidates of the active editor; never falls back to file names.
private let completionHook: @convention(c) (UnsafePointer<CChar>?, Int32, Int32)
    -> UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = { text, start, _ in
    rl_attempted_completion_over = 1
    guard let editor = activeEditor, let text, let buffer = rl_line_buffer else { return nil }
    let before = String(decoding: UnsafeRawBufferPointer(start: buffer, count: Int(start)), as: UTF8.self)
    return matchList(editor.completer.candidates(before: before, word: String(cString: text)))
}

/// The malloc'd, NULL-terminated list readline expects: the common prefix
/// first (or the only match alone), then the matches.
private func matchList(_ candidates: [String]) -> UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? {
    guard !candidates.isEmpty else { return nil }
    let entries = candidates.count == 1 ? candidates : [commonPrefix(candidates)] + candidates
    let size = (entries.count + 1) * MemoryLayout<UnsafeMutablePointer<CChar>?>.stride
    guard let raw = malloc(size) else { return nil }
    let list = raw.bindMemory(to: UnsafeMutablePointer<CChar>?.self, capacity: entries.count + 1)
    for (index, entry) in entries.enumerated() { list[index] = strdup(entry) }
    list[entries.count] = nil
    return list
}

/// The longest prefix all of `words` share.
func commonPrefix(_ words: [String]) -> String {
    guard var prefix = words.first else { return "" }
    for word in words.dropFirst() {
        while !word.hasPrefix(prefix) { prefix.removeLast() }
    }
    return prefix
}

/// Facts about the linked GNU Readline.
public enum ReadlineLibrary {
    /// Its version (`rl_library_version`), for `parley doctor`.
    public static var version: String {
        rl_library_version.map { String(cString: $0) } ?? "unknown"
    }
}
