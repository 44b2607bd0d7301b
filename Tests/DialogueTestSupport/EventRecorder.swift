public import Dialogue
import Foundation
import ParleyCoreFakes
import Synchronization

/// Collects a coordinator's events so tests can wait for one and inspect them all.
public final class EventRecorder: Sendable {
    private let recorded = Mutex<[DialogueEvent]>([])
    private let task = Mutex<Task<Void, Never>?>(nil)

    /// Starts collecting `events`.
    public init(_ events: AsyncStream<DialogueEvent>) {
        let collecting = Task { [weak self] in
            for await event in events { self?.append(event) }
        }
        task.withLock { $0 = collecting }
    }

    deinit { task.withLock { $0?.cancel() } }

    private func append(_ event: DialogueEvent) { recorded.withLock { $0.append(event) } }

    /// Waits until the coordinator has closed its event stream and every event
    /// in it has been recorded: after `stop()`, the record is then complete.
    public func waitForTheEnd() async {
        await task.withLock { $0 }?.value
    }

    /// Everything so far.
    public var events: [DialogueEvent] { recorded.withLock { $0 } }

    /// The states passed through so far, in order.
    public var states: [DialogueState] {
        events.compactMap { if case let .stateChanged(state) = $0 { return state } else { return nil } }
    }

    /// The error and notice messages so far.
    public var messages: [String] {
        events.compactMap {
            switch $0 {
            case let .error(text), let .notice(text): return text
            default: return nil
            }
        }
    }

    /// The finished turns so far.
    public var finishedTurns: [TranscriptEntry] {
        events.compactMap { if case let .turnFinished(entry) = $0 { return entry } else { return nil } }
    }

    /// How many times `waitFor` looks before it gives up: 30,000 looks a millisecond apart.
    public static let lookLimit = 30_000

    /// Waits until `condition` holds for the events so far; fails after `lookLimit` looks
    /// a millisecond apart (a guard against a hang, not a timing requirement).
    ///
    /// Looks are counted, not the clock read: a test target's synchronous tests (a child
    /// process awaited, a terminal polled) hold threads of the cooperative pool, which is
    /// as wide as the machine (two threads here). While they hold all of them no task
    /// runs, neither this one nor the coordinator's that it waits for, for as long as
    /// they take; a deadline on the clock then expired with the awaited chunk still
    /// unconsumed. A look happens only when this task runs, and so can the others.
    public func waitFor(_ what: String, _ condition: ([DialogueEvent]) -> Bool) async throws {
        for _ in 0..<Self.lookLimit {
            if condition(events) { return }
            try await Task.sleep(nanoseconds: 1_000_000)
        }
        guard condition(events) else { throw FakeFailure("never happened: \(what); events: \(events)") }
    }

    /// Waits until an error or notice containing `text` has been reported.
    public func waitForMessage(_ text: String) async throws {
        try await waitFor("a message with '\(text)'") { _ in messages.contains { $0.contains(text) } }
    }

    /// Waits until `event` has been reported.
    public func waitForEvent(_ event: DialogueEvent) async throws {
        try await waitFor("\(event)") { $0.contains(event) }
    }

    /// Waits until the last state change is to `state`.
    public func waitForState(_ state: DialogueState) async throws {
        try await waitFor("state \(state)") { _ in states.last == state }
    }
}
