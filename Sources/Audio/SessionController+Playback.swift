import ParleyCore

/// Playback: a local queue fed to the server as it asks, drain, flush, and cork requests.
extension SessionController {
    /// Queues a chunk and writes what the server wants now; the gate closes with the first chunk.
    func enqueue(_ chunk: PCMChunk) throws {
        guard chunk.format == .synthesis else { throw AudioSessionError.unsupportedPlaybackFormat(chunk.format) }
        guard !chunk.isEmpty else { return }
        try mainloop.withLock {
            switch phase {
            case .ready: break
            case .lost, .connecting: throw AudioSessionError.serverLost
            case .new, .closed: throw AudioSessionError.notOpen
            }
            if !gate.isPlaybackActive {
                gate.playbackStarted()
                playbackStart = .now
            }
            playbackQueue.append(chunk.samples)
            extendPlayout(bySeconds: chunk.duration)
            feedPlayback()
        }
    }

    /// Writes queued samples up to what the server accepts; once everything is with the
    /// server, asks it to report the drain. Runs under the lock, and as the playback
    /// stream's write callback.
    func feedPlayback() {
        guard let playbackStream, phase == .ready else { return }
        let writable = playbackStream.writableSize
        if writable > 0 && !playbackQueue.isEmpty {
            // What is written now is heard after what the server still holds.
            var playout = guardTime + latency(of: playbackStream)
            let written = playbackQueue.dequeue(upTo: writable / 2) { run in
                try? playbackStream.write(run)
                echoGuard.played(run, rate: AudioFormat.synthesis.sampleRate, at: playout)
                playout += Double(run.count) / Double(AudioFormat.synthesis.sampleRate)
            }
            if written > 0 { wroteSinceDrainRequest = true }
        }
        if playbackQueue.isEmpty && gate.isPlaybackActive && drainOperation == nil { requestDrain() }
    }

    /// Asks the server to report when everything written has been played.
    /// A drain also starts a clip shorter than the prebuffer.
    private func requestDrain() {
        guard let playbackStream else { return }
        wroteSinceDrainRequest = false
        drainOperation = playbackStream.drain { [unowned self] success in drainFinished(success: success) }
    }

    /// The server played everything written before the request (mainloop thread).
    private func drainFinished(success: Bool) {
        drainOperation = nil
        guard success, gate.isPlaybackActive, playbackQueue.isEmpty else { return }
        if wroteSinceDrainRequest {
            requestDrain()  // more audio arrived after the request: wait for that too
        } else {
            finishPlayback()
        }
    }

    /// Playback is over: the gate reopens past the tail still in flight, drain waiters return.
    private func finishPlayback() {
        let tail = latency(of: playbackStream) + latency(of: recordStream)
            + Double(options.captureFragmentMilliseconds) / 1000
        gate.playbackEnded(tailSamples: AudioFormat.recognition.sampleCount(forSeconds: min(tail, 0.5)))
        if activationStart != nil { activationStart = .now }
        playbackStart = nil
        playbackEnded()
        let waiters = drainWaiters
        drainWaiters = []
        waiters.forEach { $0.resume() }
    }

    /// Waits until the server reports everything queued as played; throws `WaitAbandoned`
    /// when it has not, `drainGrace` past the playout's due time (`watchDrain`).
    func drain() async throws {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            mainloop.withLock {
                guard gate.isPlaybackActive else { return continuation.resume() }
                drainWaiters.append(continuation)
                watchDrain()
                if playbackQueue.isEmpty && drainOperation == nil { requestDrain() }
            }
        }
    }

    /// Drops the queue and flushes the server's buffer; returns once the server has
    /// acknowledged the flush, or `flushBound` later without it.
    func cancelPlayback() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            mainloop.withLock {
                let wasActive = gate.isPlaybackActive
                if pausedByListener {
                    pausedByListener = false
                    applyCork()
                }
                playbackQueue.removeAll()
                cancelDrainOperation()
                if wasActive { finishPlayback() }
                guard wasActive, phase == .ready, let playbackStream,
                      playbackStream.flush({ [unowned self] _ in flushFinished() }) != nil else {
                    return continuation.resume()
                }
                flushWaiters.append(continuation)
                watchFlush()
            }
        }
    }

    func flushFinished() {
        let waiters = flushWaiters
        flushWaiters = []
        waiters.forEach { $0.resume() }
    }

    func cancelDrainOperation() {
        drainOperation?.cancel()
        drainOperation = nil
    }

    /// Drops all playback state when the connection goes or the session closes; drain
    /// waiters throw `error`, or return when it is nil.
    func abandonPlayback(throwing error: (any Error)?) {
        playbackQueue.removeAll()
        cancelDrainOperation()
        gate.playbackEnded(tailSamples: 0)
        playbackStart = nil
        playbackEnded()
        isInterrupted = false
        pausedByListener = false
        let waiters = drainWaiters
        drainWaiters = []
        for waiter in waiters {
            if let error { waiter.resume(throwing: error) } else { waiter.resume() }
        }
        flushFinished()
    }

    /// The playback stream's started callback: the server began playing (mainloop thread).
    func playbackStarted() {
        guard let start = playbackStart else { return }
        playbackStart = nil
        let latency = start.duration(to: .now)
        updateObserved { $0.metrics.playbackStartLatency = latency }
    }

    /// The playback stream's event callback: another application asks us to pause or resume.
    func playbackEvent(_ event: PulseStream.Event) {
        switch event {
        case .requestCork where !isInterrupted:
            isInterrupted = true
            applyCork()
            report(.interrupted)
        case .requestUncork where isInterrupted:
            isInterrupted = false
            applyCork()
            report(.interruptionEnded)
        default:
            logger.debug("playback stream event \(event.name) ignored")
        }
    }

    /// Holds playback where it is, or plays on (a person barged in, or was not a person after all).
    func setPlaybackPaused(_ paused: Bool) {
        mainloop.withLock {
            guard pausedByListener != paused else { return }
            pausedByListener = paused
            applyCork()
        }
    }

    /// Corks the playback stream while another application or the listener holds it.
    private func applyCork() {
        let corked = isInterrupted || pausedByListener
        corkChanged(corked)
        _ = playbackStream?.cork(corked)
    }
}
