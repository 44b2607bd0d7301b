import ParleyCore

/// Creating the two long-lived streams.
extension SessionController {
    /// Creates and connects the record and playback streams on a ready context; nil on success.
    func createStreams(on context: PulseContext) -> (any Error)? {
        guard let record = makeStream(on: context, name: "Parley capture", format: .recognition,
                                      role: options.captureRole) else {
            return AudioSessionError.streamFailed(kind: "capture", reason: contextError())
        }
        recordStream = record
        guard let playback = makeStream(on: context, name: "Parley speech", format: .synthesis,
                                        role: options.playbackRole) else {
            return AudioSessionError.streamFailed(kind: "playback", reason: contextError())
        }
        self.playback.stream = playback
        installCallbacks(record: record, playback: playback)
        let flags: PulseStream.Flags = [.adjustLatency, .autoTimingUpdate, .interpolateTiming]
        if devices.guardsMicrophone {
            guard let microphone = makeStream(on: context, name: "Parley echo guard", format: .recognition,
                                              role: options.captureRole) else {
                return AudioSessionError.streamFailed(kind: "capture", reason: contextError())
            }
            guardStream = microphone
            microphone.onStateChange { [unowned self, unowned microphone] in streamStateChanged(microphone) }
            microphone.onReadable { [unowned self, unowned microphone] in microphoneReadable(microphone) }
            do {
                try microphone.connectRecord(device: devices.guardSource, buffer: guardBufferAttributes(), flags: flags)
            } catch {
                return streamFailure(microphone)
            }
            openReference(on: context, flags: flags)
        }
        do {
            try record.connectRecord(device: devices.source, buffer: captureBufferAttributes(), flags: flags)
        } catch {
            return streamFailure(record)
        }
        do {
            try playback.connectPlayback(device: devices.sink, buffer: playbackBufferAttributes(), flags: flags)
        } catch {
            return streamFailure(playback)
        }
        return nil
    }

    /// The speaker's monitor, for `EchoSubtraction`. It is a help, not a need: a server that
    /// refuses it leaves the microphone as it is while Parley speaks, said in the log.
    private func openReference(on context: PulseContext, flags: PulseStream.Flags) {
        guard let monitor = makeStream(on: context, name: "Parley echo reference", format: .recognition,
                                       role: options.captureRole) else {
            return logger.warning("the speaker's monitor cannot be recorded (\(contextError())); its echo stays in the microphone heard while Parley speaks")
        }
        referenceStream = monitor
        echoSubtraction = EchoSubtraction()
        monitor.onStateChange { [unowned self, unowned monitor] in referenceStateChanged(monitor) }
        monitor.onReadable { [unowned self, unowned monitor] in referenceReadable(monitor) }
        do {
            try monitor.connectRecord(device: devices.referenceSource, buffer: guardBufferAttributes(), flags: flags)
        } catch {
            letReferenceGo(monitor, "cannot be recorded")
        }
    }

    /// A new stream in `format` with our application name and `media.role`; nil when refused.
    private func makeStream(on context: PulseContext, name: String, format: AudioFormat,
                            role: String) -> PulseStream? {
        let properties = PulsePropertyList()
        properties.set(PulsePropertyList.mediaRole, to: role)
        properties.set(PulsePropertyList.applicationName, to: options.applicationName)
        return try? PulseStream(context: context, name: name, format: format, properties: properties)
    }

    /// Capture: small fragments, so audio arrives every few milliseconds; the rest is the server's choice.
    private func captureBufferAttributes() -> PulseBufferAttributes {
        PulseBufferAttributes(fragment: byteCount(milliseconds: options.captureFragmentMilliseconds,
                                                  format: .recognition))
    }

    /// The echo guard's microphone: 10 ms fragments (its frames are 20 ms).
    private func guardBufferAttributes() -> PulseBufferAttributes {
        PulseBufferAttributes(fragment: byteCount(milliseconds: 10, format: .recognition))
    }

    /// Playback: a short target so a flush leaves little to hear, and a prebuffer shorter
    /// than one synthesized chunk so sound starts with the first chunk.
    private func playbackBufferAttributes() -> PulseBufferAttributes {
        PulseBufferAttributes(
            target: byteCount(milliseconds: options.playbackTargetMilliseconds, format: .synthesis),
            prebuffer: byteCount(milliseconds: options.playbackPrebufferMilliseconds, format: .synthesis))
    }

    private func byteCount(milliseconds: Int, format: AudioFormat) -> UInt32 {
        UInt32(max(1, format.sampleCount(forSeconds: Double(milliseconds) / 1000)) * 2)
    }

    /// The callbacks hold the engine and the streams unowned: the session keeps the engine
    /// alive until the mainloop has stopped, and the callbacks are cleared before a stream goes.
    private func installCallbacks(record: PulseStream, playback: PulseStream) {
        record.onStateChange { [unowned self, unowned record] in streamStateChanged(record) }
        playback.onStateChange { [unowned self, unowned playback] in streamStateChanged(playback) }
        record.onReadable { [unowned self, unowned record] in captureReadable(record) }
        playback.onWritable { [unowned self] in self.playback.feed() }
        playback.onStarted { [unowned self] in self.playback.started() }
        playback.onEvent { [unowned self] event in self.playback.event(event) }
    }

    /// What a failed stream means for the person: a missing device, or the server's refusal.
    func streamFailure(_ stream: PulseStream) -> AudioSessionError {
        let isRecord = stream === recordStream || stream === guardStream
        if context?.lastError == .noEntity {
            let name = (stream === guardStream ? devices.guardSource : isRecord ? devices.source : devices.sink) ?? "(default)"
            return .deviceNotFound(kind: isRecord ? "source" : "sink", name: name)
        }
        return .streamFailed(kind: isRecord ? "capture" : "playback", reason: contextError())
    }

    /// The current latency of a stream in seconds (cached timing data; never waits), 0 when unknown.
    func latency(of stream: PulseStream?) -> Double {
        stream?.latency ?? 0
    }
}
