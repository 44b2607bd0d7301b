import ParleyCore

/// Bounds on what playback waits for from the server: a drain it never reports (a frozen
/// server, or one that lost the request across a restart) and a flush it never acknowledges.
///
/// The drain's bound follows the audio: every enqueued chunk pushes `playoutDue` on by its
/// length, corked time (an interruption, a listener holding playback) pushes it on too, and
/// a drain not reported `drainGrace` past that due time is given up: its waiters throw
/// `WaitAbandoned`, what is still queued is dropped and the capture gate reopens. So a long
/// translation is waited for as long as it plays, and no longer.
extension SessionPlayback {
    /// Seconds past the playout's due time before a drain the server has not reported is given up.
    static let drainGrace = 1.5
    /// Seconds a flush the server has not acknowledged is waited for.
    static let flushBound = 0.5

    /// `seconds` more audio were enqueued (mainloop lock held).
    func extendPlayout(bySeconds seconds: Double) {
        let now = ContinuousClock.now
        let from = max(playoutDue ?? now, now)
        playoutDue = from + .seconds(seconds)
    }

    /// The stream was corked or uncorked: corked time does not count (mainloop lock held).
    func corkChanged(_ corked: Bool) {
        let now = ContinuousClock.now
        if corked {
            if corkedSince == nil { corkedSince = now }
        } else if let since = corkedSince {
            corkedSince = nil
            playoutDue = playoutDue.map { $0 + since.duration(to: now) }
            host?.playbackUncorked()
        }
    }

    /// Starts the watch over the drain waiters, if it is not running (mainloop lock held).
    func watchDrain() {
        if drainAsked == nil { drainAsked = .now }
        guard drainWatch == nil else { return }
        drainWatch = Task { [weak self] in
            while let pause = self?.checkDrain() {
                try? await Task.sleep(for: .seconds(pause))
            }
        }
    }

    /// Gives the drain up when it is overdue; the seconds to sleep before the next look, or
    /// nil when the watch is over.
    private func checkDrain() -> Double? {
        mainloop.withLock {
            guard !drainWaiters.isEmpty, host?.isClosed == false else {
                drainWatch = nil
                return nil
            }
            let now = ContinuousClock.now
            if corkedSince != nil { return 0.25 }
            let deadline = (playoutDue ?? drainAsked ?? now) + .seconds(Self.drainGrace)
            guard now >= deadline else { return max(0.05, Self.seconds(now.duration(to: deadline))) }
            giveUpDrain(waited: Self.seconds((drainAsked ?? now).duration(to: now)))
            drainWatch = nil
            return nil
        }
    }

    /// The server never reported the drain: playback is dropped and the waiters throw.
    private func giveUpDrain(waited: Double) {
        let abandoned = WaitAbandoned(what: "the audio server did not report the end of playback",
                                      seconds: (waited * 10).rounded() / 10)
        logger.debug("\(abandoned); playback dropped")
        queue.removeAll()
        cancelDrainOperation()
        if let stream, host?.isConnectionReady == true { _ = stream.flush { _ in } }
        ended(tailSamples: 0)
        let waiters = drainWaiters
        drainWaiters = []
        waiters.forEach { $0.resume(throwing: abandoned) }
    }

    /// A flush waited for: its waiters return `flushBound` later if the server has not
    /// acknowledged it by then (mainloop lock held).
    func watchFlush() {
        Task { [weak self] in
            try? await Task.sleep(for: .seconds(Self.flushBound))
            guard let self else { return }
            self.mainloop.withLock {
                guard !self.flushWaiters.isEmpty else { return }
                self.logger.debug("the audio server did not acknowledge the flush within \(Self.flushBound) s")
                self.flushFinished()
            }
        }
    }

    private static func seconds(_ duration: Duration) -> Double {
        let parts = duration.components
        return Double(parts.seconds) + Double(parts.attoseconds) * 1e-18
    }
}
