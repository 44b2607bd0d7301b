import CPulseAudio

/// A stream's buffer sizes in bytes (`pa_buffer_attr`); nil leaves one to the server.
struct PulseBufferAttributes: Equatable {
    /// Playback: how much the server keeps queued (`tlength`).
    var target: UInt32?
    /// Playback: how much must be queued before sound starts (`prebuf`).
    var prebuffer: UInt32?
    /// Capture: how much the server collects before sending (`fragsize`).
    var fragment: UInt32?

    /// The C structure, `(uint32_t) -1` for the server's choice.
    var cValue: pa_buffer_attr {
        pa_buffer_attr(maxlength: UInt32.max, tlength: target ?? UInt32.max, prebuf: prebuffer ?? UInt32.max,
                       minreq: UInt32.max, fragsize: fragment ?? UInt32.max)
    }
}

extension PulseStream {
    /// How a stream connects (`pa_stream_flags_t`).
    struct Flags: OptionSet {
        let rawValue: UInt32

        /// Ask the server for the latency the buffer sizes imply (`PA_STREAM_ADJUST_LATENCY`).
        static let adjustLatency = Flags(rawValue: PA_STREAM_ADJUST_LATENCY.rawValue)
        /// Keep timing data up to date (`PA_STREAM_AUTO_TIMING_UPDATE`).
        static let autoTimingUpdate = Flags(rawValue: PA_STREAM_AUTO_TIMING_UPDATE.rawValue)
        /// Interpolate timing between updates (`PA_STREAM_INTERPOLATE_TIMING`).
        static let interpolateTiming = Flags(rawValue: PA_STREAM_INTERPOLATE_TIMING.rawValue)

        var cValue: pa_stream_flags_t { pa_stream_flags_t(rawValue: rawValue) }
    }
}
