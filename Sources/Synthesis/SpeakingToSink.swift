public import ParleyCore

/// How speaking to a sink ended.
public enum SpeechCompletion: Sendable, Equatable {
    /// Everything was synthesized and played.
    case finished
    /// The synthesizer was stopped; the sink dropped what it had not played.
    case cancelled
}

extension SpeechSynthesizer {
    /// Speaks `utterance` through `sink`: each audio chunk is enqueued as soon as it is
    /// synthesized (so playback starts with the first one), then the sink is drained.
    /// `onEvent` sees every other event (started, words, finished, cancelled) as it happens.
    /// When the synthesizer is stopped, the sink's playback is cancelled too.
    @discardableResult
    public func speak(_ utterance: Utterance, to sink: any AudioSink,
                      onEvent: @Sendable (SynthesisEvent) -> Void = { _ in }) async throws -> SpeechCompletion {
        for try await event in speak(utterance) {
            switch event {
            case let .audio(chunk):
                try await sink.enqueue(chunk)
            case .cancelled:
                await sink.cancelPlayback()
                onEvent(event)
                return .cancelled
            default:
                onEvent(event)
            }
        }
        try await sink.drain()
        return .finished
    }
}
