import ParleyCore

/// How speaking one utterance to one speaker ended, for a dialogue's turns, asides and clauses
/// and a room's translations alike. Times are on the conversation's clock; `start` is when
/// its first audio was handed to the speaker, nil when none was.
enum SpeechOutcome {
    /// Played to its end.
    case spoken(start: Double?, end: Double)
    /// The caller stopped wanting it (its `while` condition ended) before it was played out.
    case abandoned(start: Double?)
    /// It failed: the speaker's server stopped answering, or a stage failed.
    case failed(SpeechFailure, start: Double?)

    /// When its first audio was handed to the speaker.
    var start: Double? {
        switch self {
        case let .spoken(start, _), let .abandoned(start), let .failed(_, start): start
        }
    }
}

/// Why speech failed.
enum SpeechFailure: CustomStringConvertible {
    /// The speaker's server did not answer within its bound (a frozen server): named once, and
    /// what is still queued for that speaker may be given up.
    case unanswered(WaitAbandoned)
    /// The synthesizer or the speaker failed, as the stage that failed reports it.
    case stage(StageError)

    init(_ error: any Error) {
        if let sink = error as? AudioSinkFailure {
            self = (sink.error as? WaitAbandoned).map(Self.unanswered) ?? .stage(StageError(.audio, sink.error))
        } else {
            self = .stage(error as? StageError ?? StageError(.synthesis, error))
        }
    }

    var description: String {
        switch self {
        case let .unanswered(abandoned): StageError(.audio, abandoned).description
        case let .stage(error): error.description
        }
    }
}

extension SpeechSynthesizer {
    /// Speaks `utterance` on `sink` while `isCurrent` holds; `started` is told the time its first
    /// audio went to the speaker. Both closures run on the caller's actor.
    func say(_ utterance: Utterance, on sink: any AudioSink, clock: SessionClock,
             isolation: isolated (any Actor)? = #isolation,
             while isCurrent: () -> Bool, started: (Double) -> Void = { _ in }) async -> SpeechOutcome {
        var start: Double?
        do {
            try await speak(utterance, to: sink, while: isCurrent) { event in
                guard case .audio = event, start == nil else { return }
                let now = clock.now()
                start = now
                started(now)
            }
        } catch {
            return isCurrent() ? .failed(SpeechFailure(error), start: start) : .abandoned(start: start)
        }
        return isCurrent() ? .spoken(start: start, end: clock.now()) : .abandoned(start: start)
    }
}
