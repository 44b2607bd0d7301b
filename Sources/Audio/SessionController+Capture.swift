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
        while stream.readableSize > 0 {
            guard let (data, length) = try? stream.peek(), length > 0 else { return }
            if let data, !deliversMicrophone {  // nil data is a hole in the recording: nothing to deliver
                let samples = data.bindMemory(to: Int16.self, capacity: length / 2)
                captured(UnsafeBufferPointer(start: samples, count: length / 2))
            }
            try? stream.drop()
        }
    }

    /// Captured audio from now on comes from the microphone behind the canceller (true) or
    /// from the canceller's source (false); without a canceller there is only the one.
    func setDeliversMicrophone(_ direct: Bool) {
        mainloop.withLock { deliversMicrophone = direct && guardStream != nil }
    }

    /// The echo guard's microphone stream's read callback (mainloop thread).
    func microphoneReadable(_ stream: PulseStream) {
        while stream.readableSize > 0 {
            guard let (data, length) = try? stream.peek(), length > 0 else { return }
            if let data {
                let samples = UnsafeBufferPointer(start: data.bindMemory(to: Int16.self, capacity: length / 2), count: length / 2)
                judge(samples)
                // The subtraction runs all the time, so that it knows the room before it is needed.
                if let ready = echoSubtraction?.microphoneArrived(samples, at: guardTime, person: echoGuard.verdict == .person) {
                    if let report = echoSubtraction?.takeReport(every: 125) {
                        logger.debug("echo subtraction: \(report.decibels) dB less over \(report.blocks) blocks with playback, \(report.promotions) renewals, \(report.forgotten) forgotten, monitor placed \(report.offset ?? 0) samples on")
                    }
                    if deliversMicrophone, !ready.isEmpty { ready.withUnsafeBufferPointer { captured($0) } }
                } else if deliversMicrophone {
                    captured(samples)
                }
            } else if echoSubtraction != nil {
                // A hole counts as silence for the subtraction, which counts samples to stay placed.
                let silence = [Int16](repeating: 0, count: length / 2)
                if let ready = silence.withUnsafeBufferPointer({ echoSubtraction?.microphoneArrived($0, at: guardTime) }),
                   deliversMicrophone, !ready.isEmpty {
                    ready.withUnsafeBufferPointer { captured($0) }
                }
            }
            try? stream.drop()
        }
    }

    /// The speaker's monitor's read callback (mainloop thread).
    func referenceReadable(_ stream: PulseStream) {
        while stream.readableSize > 0 {
            guard let (data, length) = try? stream.peek(), length > 0 else { return }
            if let data {
                let samples = UnsafeBufferPointer(start: data.bindMemory(to: Int16.self, capacity: length / 2), count: length / 2)
                echoSubtraction?.referenceArrived(samples, at: guardTime)
            } else {
                // A hole in the recording still takes its time: it counts as silence, so the
                // monitor stays placed against the microphone.
                let silence = [Int16](repeating: 0, count: length / 2)
                silence.withUnsafeBufferPointer { echoSubtraction?.referenceArrived($0, at: guardTime) }
            }
            try? stream.drop()
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

    /// Measures one fragment and hands what the gate admits to the consumer.
    private func captured(_ samples: UnsafeBufferPointer<Int16>) {
        let level = AudioLevel(measuring: samples)
        updateObserved { $0.inputLevel.add(level, sampleCount: samples.count) }
        // The guard judges only a capture that stays open during playback; a gated one never
        // delivers the playback, and its tail is dropped by the gate.
        if !devices.guardsMicrophone && !devices.gatesCaptureDuringPlayback { judge(samples) }
        let verdict = echoGuard.verdict
        guard let admitted = gate.admit(samples.count) else { return }
        if let start = activationStart {
            activationStart = nil
            let latency = start.duration(to: .now)
            updateObserved { $0.metrics.activationLatency = latency }
        }
        capture.push(PCMChunk(format: .recognition, samples: Array(samples[admitted]), echo: verdict))
    }
}
