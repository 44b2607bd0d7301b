import CPulseAudio
import ParleyCore

/// Creating the two long-lived streams.
extension SessionEngine {
    /// Creates and connects the record and playback streams on a ready context; nil on success.
    func createStreams(on context: OpaquePointer) -> (any Error)? {
        guard let record = makeStream(on: context, name: "Parley capture", format: .recognition,
                                      role: options.captureRole) else {
            return AudioSessionError.streamFailed(kind: "capture", reason: contextError())
        }
        recordStream = record
        guard let playback = makeStream(on: context, name: "Parley speech", format: .synthesis,
                                        role: options.playbackRole) else {
            return AudioSessionError.streamFailed(kind: "playback", reason: contextError())
        }
        playbackStream = playback
        installCallbacks()
        let flags = pa_stream_flags_t(rawValue: PA_STREAM_ADJUST_LATENCY.rawValue
            | PA_STREAM_AUTO_TIMING_UPDATE.rawValue | PA_STREAM_INTERPOLATE_TIMING.rawValue)
        var recordAttributes = captureBufferAttributes()
        guard pa_stream_connect_record(record, options.source, &recordAttributes, flags) >= 0 else {
            return streamFailure(record)
        }
        var playbackAttributes = playbackBufferAttributes()
        guard pa_stream_connect_playback(playback, options.sink, &playbackAttributes, flags, nil, nil) >= 0 else {
            return streamFailure(playback)
        }
        return nil
    }

    /// A new stream in `format` with our application name and `media.role` (`pa_stream_new_with_proplist`).
    private func makeStream(on context: OpaquePointer, name: String, format: AudioFormat,
                            role: String) -> OpaquePointer? {
        var spec = pa_sample_spec(format: PA_SAMPLE_S16LE, rate: UInt32(format.sampleRate),
                                  channels: UInt8(format.channels))
        let properties = pa_proplist_new()
        defer { pa_proplist_free(properties) }
        pa_proplist_sets(properties, PA_PROP_MEDIA_ROLE, role)
        pa_proplist_sets(properties, PA_PROP_APPLICATION_NAME, options.applicationName)
        return pa_stream_new_with_proplist(context, name, &spec, nil, properties)
    }

    /// Capture: small fragments, so audio arrives every few milliseconds; the rest is the server's choice.
    private func captureBufferAttributes() -> pa_buffer_attr {
        let fragment = byteCount(milliseconds: options.captureFragmentMilliseconds, format: .recognition)
        return pa_buffer_attr(maxlength: UInt32.max, tlength: UInt32.max, prebuf: UInt32.max,
                              minreq: UInt32.max, fragsize: fragment)
    }

    /// Playback: a short target so a flush leaves little to hear, and a prebuffer shorter
    /// than one synthesized chunk so sound starts with the first chunk.
    private func playbackBufferAttributes() -> pa_buffer_attr {
        pa_buffer_attr(maxlength: UInt32.max,
                       tlength: byteCount(milliseconds: options.playbackTargetMilliseconds, format: .synthesis),
                       prebuf: byteCount(milliseconds: options.playbackPrebufferMilliseconds, format: .synthesis),
                       minreq: UInt32.max, fragsize: UInt32.max)
    }

    private func byteCount(milliseconds: Int, format: AudioFormat) -> UInt32 {
        UInt32(max(1, format.sampleCount(forSeconds: Double(milliseconds) / 1000)) * 2)
    }

    private func installCallbacks() {
        for stream in [recordStream, playbackStream].compactMap({ $0 }) {
            pa_stream_set_state_callback(stream, { stream, userData in
                SessionEngine.from(userData).streamStateChanged(stream!)
            }, userData)
        }
        pa_stream_set_read_callback(recordStream, { stream, _, userData in
            SessionEngine.from(userData).captureReadable(stream!)
        }, userData)
        pa_stream_set_write_callback(playbackStream, { _, _, userData in
            SessionEngine.from(userData).feedPlayback()
        }, userData)
        pa_stream_set_started_callback(playbackStream, { _, userData in
            SessionEngine.from(userData).playbackStarted()
        }, userData)
        pa_stream_set_event_callback(playbackStream, { _, name, _, userData in
            SessionEngine.from(userData).playbackEvent(name.map { String(cString: $0) } ?? "")
        }, userData)
    }

    /// What a failed stream means for the person: a missing device, or the server's refusal.
    func streamFailure(_ stream: OpaquePointer) -> AudioSessionError {
        let kind = stream == recordStream ? "capture" : "playback"
        let code = context.map { Int32(pa_context_errno($0)) } ?? 0
        if code == Int32(PA_ERR_NOENTITY.rawValue) {
            let name = (stream == recordStream ? options.source : options.sink) ?? "(default)"
            return .deviceNotFound(kind: stream == recordStream ? "source" : "sink", name: name)
        }
        return .streamFailed(kind: kind, reason: contextError())
    }

    /// The current latency of a stream in seconds (cached timing data; never waits), 0 when unknown.
    func latency(of stream: OpaquePointer?) -> Double {
        guard let stream else { return 0 }
        var microseconds: pa_usec_t = 0
        var negative: Int32 = 0
        guard pa_stream_get_latency(stream, &microseconds, &negative) == 0, negative == 0 else { return 0 }
        return Double(microseconds) / 1_000_000
    }
}
