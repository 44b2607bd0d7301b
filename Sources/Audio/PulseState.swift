import CPulseAudio

/// Where a context or a stream is in its life, as far as Parley cares.
enum PulseState: Equatable {
    /// Not connected yet, or on the way (`PA_CONTEXT_CONNECTING`, `PA_STREAM_CREATING`…).
    case pending
    /// Usable.
    case ready
    /// Lost: the server went away or refused.
    case failed
    /// Closed on purpose.
    case terminated

    /// Reads `pa_context_state_t`.
    init(_ state: pa_context_state_t) {
        switch state {
        case PA_CONTEXT_READY: self = .ready
        case PA_CONTEXT_FAILED: self = .failed
        case PA_CONTEXT_TERMINATED: self = .terminated
        default: self = .pending
        }
    }

    /// Reads `pa_stream_state_t`.
    init(_ state: pa_stream_state_t) {
        switch state {
        case PA_STREAM_READY: self = .ready
        case PA_STREAM_FAILED: self = .failed
        case PA_STREAM_TERMINATED: self = .terminated
        default: self = .pending
        }
    }
}
