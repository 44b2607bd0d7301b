import Foundation
import REPL
import Synchronization

/// A line editor that records what the REPL shows.
final class RecordingEditor: LineEditor {
    private let recorded = Mutex<[EditorAction]>([])

    var actions: [EditorAction] { recorded.withLock { $0 } }
    var lines: [String] { actions.compactMap { if case let .line(text) = $0 { text } else { nil } } }

    func printLine(_ text: String) { recorded.withLock { $0.append(.line(text)) } }
    func showStatus(_ text: String?) { recorded.withLock { $0.append(.status(text)) } }
    func setPrompt(_ prompt: String) { recorded.withLock { $0.append(.prompt(prompt)) } }
    func offerLine(_ text: String) { recorded.withLock { $0.append(.offer(text)) } }
}
