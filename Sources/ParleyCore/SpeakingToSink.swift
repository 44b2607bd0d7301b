/// How speaking to a sink ended.
public enum SpeechCompletion: Sendable, Equatable {
    /// Everything was synthesized and played.
    case finished
    /// The synthesizer was stopped, or the caller's `while` condition ended; the sink was not drained.
    case cancelled
}

/// A sink failed while speech was played into it. It reads as the sink's own
/// error; a caller that reports stages tells it apart from the synthesizer's.
public struct AudioSinkFailure: Error, CustomStringConvertible {
    /// What the sink threw.
    public var error: any Error

    public var description: String { String(describing: error) }
}

extension SpeechSynthesizer {
    /// Speaks `utterance` through `sink`: each audio chunk is enqueued as soon as it is
    /// synthesized (so playback starts with the first one), then the sink is drained.
    ///
    /// `onEvent` sees every event as it happens, before its audio is enqueued. While
    /// `isCurrent` holds the speech goes on; once it does not (the caller abandoned the
    /// speech and stops the playback itself), nothing more is enqueued or drained. When
    /// the synthesizer is stopped, the sink's playback is cancelled too. A sink's failure
    /// is thrown as `AudioSinkFailure`; the synthesizer's as it is.
    ///
    /// Both closures run on the caller's actor, so they may read and change its state:
    ///
    /// ```swift
    /// try await synthesizer.speak(utterance, to: sink, while: { epoch.isCurrent(token) }) { event in
    ///     if case .audio = event, start == nil { start = clock.now() }
    /// }
    /// ```
    @discardableResult
    public func speak(_ utterance: Utterance, to sink: any AudioSink,
                      isolation: isolated (any Actor)? = #isolation,
                      while isCurrent: () -> Bool = { true },
                      onEvent: (SynthesisEvent) -> Void = { _ in }) async throws -> SpeechCompletion {
        for try await event in speak(utterance) {
            guard isCurrent() else { return .cancelled }
            onEvent(event)
            switch event {
            case let .audio(chunk):
                do { try await sink.enqueue(chunk) } catch { throw AudioSinkFailure(error: error) }
            case .cancelled:
                await sink.cancelPlayback()
                return .cancelled
            default:
                break
            }
        }
        guard isCurrent() else { return .cancelled }
        do { try await sink.drain() } catch { throw AudioSinkFailure(error: error) }
        return .finished
    }
}
