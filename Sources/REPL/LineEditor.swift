import Foundation
import Synchronization

/// What the REPL shows, and how: readline on a terminal, plain lines on a
/// pipe, or a recording fake in tests. Methods may be called from any thread;
/// an implementation does the work on its own thread, in call order.
public protocol LineEditor: AnyObject, Sendable {
    /// Prints a finished line above the prompt, leaving a half-typed line intact.
    func printLine(_ text: String)
    /// Shows a transient line above the prompt (level meter, partial result),
    /// replacing the previous one; nil removes it.
    func showStatus(_ text: String?)
    /// Changes the prompt.
    func setPrompt(_ prompt: String)
    /// Puts `text` on the input line for editing (correction mode).
    func offerLine(_ text: String)
}

extension LineEditor {
    /// Does what a renderer asked for.
    func perform(_ action: EditorAction) {
        switch action {
        case let .line(text): printLine(text)
        case let .status(text): showStatus(text)
        case let .prompt(text): setPrompt(text)
        case let .offer(text): offerLine(text)
        }
    }
}

/// Plain output for standard output that is not a terminal: one line per
/// call, no prompt, no status, no escape codes.
public final class PlainEditor: LineEditor, Sendable {
    private let lock = Mutex(())
    private let descriptor: Int32

    /// Writes to standard output.
    public init() {
        descriptor = STDOUT_FILENO
    }

    public func printLine(_ text: String) {
        lock.withLock { _ in writeAll(descriptor, text + "\n") }
    }

    public func showStatus(_ text: String?) {}
    public func setPrompt(_ prompt: String) {}
    public func offerLine(_ text: String) {}
}

/// Writes all of `text` to `descriptor`, retrying after interruptions.
func writeAll(_ descriptor: Int32, _ text: String) {
    var bytes = Array(text.utf8)[...]
    while !bytes.isEmpty {
        let written = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        if written < 0, errno == EINTR { continue }
        guard written > 0 else { return }
        bytes = bytes.dropFirst(written)
    }
}
