import ParleyCore

/// Capture: the record stream runs all the time; listening only opens the gate.
extension SessionController {
    /// Opens the gate: audio captured from now on is delivered.
    func startListening() throws {
        try mainloop.withLock {
            guard phase != .new && phase != .closed else { throw AudioSessionError.notOpen }
            guard !gate.isListening else { return }
            gate.isListening = true
            activationStart = .now
        }
    }

    /// Closes the gate, then drops what was captured and not consumed.
    func stopListening() {
        mainloop.withLock {
            gate.isListening = false
            activationStart = nil
        }
        capture.clear()
    }

    /// The record stream's read callback (mainloop thread): takes every fragment the server has.
    func captureReadable(_ stream: PulseStream) {
        stream.readFragments { samples, _ in
            // A hole in the recording is nothing to deliver.
            if let samples, !deliversMicrophone { captured(samples) }
        }
    }

    /// Captured audio from now on comes from the microphone behind the canceller (true) or
    /// from the canceller's source (false); without a canceller there is only the one.
    func setDeliversMicrophone(_ direct: Bool) {
        mainloop.withLock { deliversMicrophone = direct && guardStream != nil }
    }

    /// The echo guard's microphone stream's read callback (mainloop thread).
    func microphoneReadable(_ stream: PulseStream) {
        stream.readFragments { samples, count in
            let before = echoGuard.verdict
            if let samples { judge(samples) }
            guard echoSubtraction != nil else {
                if deliversMicrophone, let samples { captured(samples) }
                return
            }
            // The subtraction runs all the time, so that it knows the room before it is needed. A
            // hole counts as silence for it, as it counts samples to stay placed.
            let silence = samples == nil ? [Int16](repeating: 0, count: count) : []
            let ready = silence.withUnsafeBufferPointer { hole in
                echoSubtraction?.microphoneArrived(samples ?? hole, at: guardTime,
                                                   person: samples != nil && echoGuard.verdict == .person,
                                                   verdict: echoGuard.verdict)
            }
            if samples != nil, let report = echoSubtraction?.takeReport(every: 125) {
                logger.debug("echo subtraction: \(report)")
            }
            guard deliversMicrophone, let ready else { return }
            // The subtraction may hold this audio a while (for its monitor, or the first
            // playback's direct path); the guard's word that a person began goes at once.
            if before != .person, echoGuard.verdict == .person { announcePerson() }
            for run in ready { run.samples.withUnsafeBufferPointer { captured($0, echoAlone: run.echoAlone, verdict: run.verdict) } }
        }
    }

    /// The speaker's monitor's read callback (mainloop thread). A hole in the recording still
    /// takes its time: it counts as silence, so the monitor stays placed against the microphone.
    func referenceReadable(_ stream: PulseStream) {
        stream.readFragments { samples, count in
            let silence = samples == nil ? [Int16](repeating: 0, count: count) : []
            silence.withUnsafeBufferPointer { echoSubtraction?.referenceArrived(samples ?? $0, at: guardTime) }
        }
    }

    /// The monitor's state callback: a monitor that fails is let go, and the microphone heard
    /// while Parley speaks keeps its echo; the session goes on.
    func referenceStateChanged(_ stream: PulseStream) {
        switch stream.state {
        case .failed, .terminated:
            guard stream === referenceStream else { return }
            letReferenceGo(stream, "stopped")
        default:
            break
        }
    }

    /// Records the monitor no more (`what` happened to it), said in the log; the session goes on.
    func letReferenceGo(_ stream: PulseStream, _ what: String) {
        logger.warning("the speaker's monitor \(what) (\(contextError())); its echo stays in the microphone heard while Parley speaks")
        stream.clearCallbacks()
        referenceStream = nil
        echoSubtraction = nil
    }

    /// Hands microphone samples to the echo guard; logs its verdict when it changes.
    private func judge(_ samples: UnsafeBufferPointer<Int16>) {
        let (before, stalls) = (echoGuard.verdict, echoGuard.stalls)
        let verdict = echoGuard.heard(samples, at: guardTime)
        if echoGuard.stalls != stalls { logger.debug("echo guard: the microphone stalled; learning the room again") }
        guard verdict != before else { return }
        let path = echoGuard.path
        logger.debug("echo guard: \(verdict) (echo lag \(path.lag.map { "\($0 * 20) ms" } ?? "unknown"), gain \(path.gain))")
    }

    /// Hands the consumer a chunk with no samples that says the echo guard heard a person,
    /// ahead of the audio it judged (`PCMChunk`), where the gate is open.
    private func announcePerson() {
        guard gate.isOpen else { return }
        capture.push(PCMChunk(format: .recognition, samples: [], echo: .person))
    }

    /// Measures one fragment and hands what the gate admits to the consumer; `echoAlone`: the
    /// echo subtraction explains it; `verdict`: the echo guard's when it arrived (by default,
    /// the guard's now: a fragment delivered as it arrives).
    private func captured(_ samples: UnsafeBufferPointer<Int16>, echoAlone: Bool = false, verdict arrival: EchoVerdict? = nil) {
        let level = AudioLevel(measuring: samples)
        updateObserved { $0.inputLevel.add(level, sampleCount: samples.count) }
        // The guard judges only a capture that stays open during playback; a gated one never
        // delivers the playback, and its tail is dropped by the gate.
        if !devices.guardsMicrophone && !devices.gatesCaptureDuringPlayback { judge(samples) }
        let verdict = arrival ?? echoGuard.verdict
        guard let admitted = gate.admit(samples.count) else { return }
        if let start = activationStart {
            activationStart = nil
            let latency = start.duration(to: .now)
            updateObserved { $0.metrics.activationLatency = latency }
        }
        capture.push(PCMChunk(format: .recognition, samples: Array(samples[admitted]), echo: verdict, echoAlone: echoAlone))
    }
}
