import ParleyCore

/// Playback as the session sees it: what it checks before a chunk is queued, and what
/// `SessionPlayback` tells the capture side (the gate, the echo guard, the metrics).
extension SessionController: PlaybackHost {
    /// Queues a chunk; the gate closes with the first one (a gated capture).
    func enqueue(_ chunk: PCMChunk) throws {
        guard chunk.format == .synthesis else { throw AudioSessionError.unsupportedPlaybackFormat(chunk.format) }
        guard !chunk.isEmpty else { return }
        try mainloop.withLock {
            switch phase {
            case .ready: break
            case .lost, .connecting: throw AudioSessionError.serverLost
            case .new, .closed: throw AudioSessionError.notOpen
            }
            playback.enqueue(chunk)
        }
    }

    /// Drops what is queued and flushes the server's buffer (`SessionPlayback.cancel`).
    func cancelPlayback() async {
        await playback.cancel()
    }

    var isConnectionReady: Bool { phase == .ready }
    var isClosed: Bool { phase == .closed }

    var playbackTailSeconds: Double {
        latency(of: recordStream) + Double(options.captureFragmentMilliseconds) / 1000
    }

    func playbackBegan() { gate.playbackStarted() }

    func handedToServer(_ samples: UnsafeBufferPointer<Int16>, heardAt time: Double) {
        echoGuard.played(samples, rate: AudioFormat.synthesis.sampleRate, at: time)
    }

    func playbackOver(tailSamples: Int) {
        gate.playbackEnded(tailSamples: tailSamples)
        if activationStart != nil { activationStart = .now }
    }

    func playbackUncorked() { echoGuard.playbackResumed() }

    func playbackStartLatency(_ latency: Duration) {
        updateObserved { $0.metrics.playbackStartLatency = latency }
    }
}
