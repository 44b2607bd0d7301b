import ParleyCore
import Synchronization

/// Carries one utterance's events from the engine thread to the task reading them.
///
/// Unlike a plain `AsyncStream` buffer it can be cancelled: `cancel()` drops every
/// event produced but not yet read, so after a stop the reader gets `.cancelled`
/// next instead of the seconds of audio espeak produced ahead of playback.
final class EventChannel: Sendable {
    private struct State {
        var buffer: [Result<SynthesisEvent, any Error>] = []
        var head = 0
        var waiter: CheckedContinuation<Result<SynthesisEvent, any Error>?, Never>?
        var cancelled = false
        var closed = false
    }

    private let state = Mutex(State())

    /// Whether the utterance was stopped; the engine checks this in its callback.
    var isCancelled: Bool { state.withLock { $0.cancelled } }

    /// Delivers an event; after a cancel only the final `.cancelled` gets through.
    func send(_ event: SynthesisEvent) {
        deliver(.success(event), closing: event == .finished || event == .cancelled)
    }

    /// Ends the stream with an error.
    func fail(_ error: any Error) {
        deliver(.failure(error), closing: true)
    }

    /// Whether the reader has had every event, the last one included.
    var isSpent: Bool { state.withLock { $0.closed && $0.head >= $0.buffer.count } }

    /// Stops the utterance: unread events are dropped and the engine stops at its next
    /// callback. An utterance already synthesized but not yet read to the end is
    /// cancelled too: the reader gets `.cancelled` instead of the rest.
    func cancel() {
        state.withLock { state in
            if state.closed {
                guard state.head < state.buffer.count else { return }
                state.buffer = [.success(.cancelled)]
            } else {
                state.buffer.removeAll()
            }
            state.head = 0
            state.cancelled = true
        }
    }

    /// The next event, waiting for it; nil after the last one.
    func next() async -> Result<SynthesisEvent, any Error>? {
        await withCheckedContinuation { continuation in
            let ready: Result<SynthesisEvent, any Error>?? = state.withLock { state in
                if state.head < state.buffer.count {
                    defer { state.head += 1 }
                    return .some(state.buffer[state.head])
                }
                if state.closed { return .some(nil) }
                state.waiter = continuation
                return nil
            }
            if let ready { continuation.resume(returning: ready) }
        }
    }

    private func deliver(_ item: Result<SynthesisEvent, any Error>, closing: Bool) {
        let (waiter, delivered) = state.withLock { state -> (CheckedContinuation<Result<SynthesisEvent, any Error>?, Never>?, Result<SynthesisEvent, any Error>) in
            guard !state.closed else { return (nil, item) }
            var item = item
            if state.cancelled {
                // After a stop only the end gets through, and whatever ends the job ends it as cancelled.
                guard closing else { return (nil, item) }
                item = .success(.cancelled)
            }
            state.closed = closing
            if let waiter = state.waiter {
                state.waiter = nil
                return (waiter, item)
            }
            state.buffer.append(item)
            return (nil, item)
        }
        waiter?.resume(returning: delivered)
    }

    /// The channel as the stream `SpeechSynthesizer.speak` returns; a reader that stops
    /// reading (its task cancelled) stops the utterance.
    func stream() -> AsyncThrowingStream<SynthesisEvent, any Error> {
        AsyncThrowingStream {
            let next = await withTaskCancellationHandler {
                await self.next()
            } onCancel: {
                self.cancel()
            }
            return try next?.get()
        }
    }
}
