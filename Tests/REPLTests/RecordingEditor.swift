import Foundation
import REPL

/// A line editor that records what the REPL shows.
final class RecordingEditor: LineEditor, @unchecked Sendable {
    private let lock = NSLock()
    private var recorded: [EditorAction] = []

    var actions: [EditorAction] { lock.withLock { recorded } }
    var lines: [String] { actions.compactMap { if case let .line(text) = $0 { text } else { nil } } }

    func printLine(_ text: String) { lock.withLock { recorded.append(.line(text)) } }
    func showStatus(_ text: String?) { lock.withLock { recorded.append(.status(text)) } }
    func setPrompt(_ prompt: String) { lock.withLock { recorded.append(.prompt(prompt)) } }
    func offerLine(_ text: String) { lock.withLock { recorded.append(.offer(text)) } }
}
