import Logging
import ParleyCore

/// What a session's playback needs from the session it belongs to. Every call is made on
/// the mainloop thread or with the mainloop lock held.
protocol PlaybackHost: AnyObject {
    /// Whether the connection is ready: the stream is there to be written.
    var isConnectionReady: Bool { get }
    /// Whether the session is closed: nothing it waits for is watched any more.
    var isClosed: Bool { get }
    /// Seconds since the session was created: the echo guard's clock.
    var guardTime: Double { get }
    /// Seconds of the playback's end still travelling through the device and the record
    /// buffer once the server reports it played.
    var playbackTailSeconds: Double { get }
    /// Playback begins: a capture gated during playback closes.
    func playbackBegan()
    /// `samples` were handed to the server, to be heard at `time` on the echo guard's clock.
    func handedToServer(_ samples: UnsafeBufferPointer<Int16>, heardAt time: Double)
    /// Playback is over, played or dropped: the next `tailSamples` captured still carry it.
    func playbackOver(tailSamples: Int)
    /// The server began playing, `latency` after the first chunk was enqueued.
    func playbackStartLatency(_ latency: Duration)
    /// The stream was uncorked: what it held plays now, later than it was written for.
    func playbackUncorked()
    /// Reports an event to the session's listener.
    func report(_ event: AudioEvent)
}

/// The speaker half of an `AudioSession`: the playback stream, a local queue fed to the
/// server as it asks, drain, flush and cork (another application's, or a listener holding
/// playback), and the bounds on what it waits for (`SessionPlayback+DrainWatch`).
///
/// Guarded like the session that owns it: every stored `var` by the mainloop lock, which
/// the stream's callbacks already hold. It tells the session what the capture side must
/// know (`PlaybackHost`): when playback begins and ends, and what was handed to the server.
final class SessionPlayback: @unchecked Sendable {  // every stored var: the mainloop lock
    let mainloop: ThreadedMainloop
    let logger: Logger
    /// The session it belongs to, which owns it.
    weak var host: (any PlaybackHost)?

    // Guarded by the mainloop lock.
    /// The stream of the current connection, nil while there is none.
    var stream: PulseStream?
    /// Whether playback is queued or playing (from the first chunk until drained or dropped).
    private(set) var isActive = false
    /// Another application asked us to pause (a cork request); the stream is corked.
    var isInterrupted = false
    /// The listener asked to hold playback (`setPaused`); the stream is corked.
    var pausedByListener = false
    var queue = PlaybackQueue()
    var drainOperation: PulseOperation?
    var wroteSinceDrainRequest = false
    var drainWaiters: [CheckedContinuation<Void, any Error>] = []
    var flushWaiters: [CheckedContinuation<Void, Never>] = []
    var playbackStart: ContinuousClock.Instant?
    /// When everything enqueued should have been played, corked time left out (`DrainWatch`).
    var playoutDue: ContinuousClock.Instant?
    /// Since when the stream is corked (interrupted, or held by the listener).
    var corkedSince: ContinuousClock.Instant?
    /// When the first of the current drain waiters asked.
    var drainAsked: ContinuousClock.Instant?
    /// The task that gives up a drain the server does not report.
    var drainWatch: Task<Void, Never>?

    init(mainloop: ThreadedMainloop, logger: Logger) {
        self.mainloop = mainloop
        self.logger = logger
    }

    /// The stream's current latency in seconds (cached timing data; never waits), 0 when unknown.
    var latency: Double { stream?.latency ?? 0 }

    /// Queues `chunk` and writes what the server wants now (mainloop lock held; the
    /// session has checked that its connection is ready).
    func enqueue(_ chunk: PCMChunk) {
        if !isActive {
            isActive = true
            host?.playbackBegan()
            playbackStart = .now
        }
        queue.append(chunk.samples)
        extendPlayout(bySeconds: chunk.duration)
        feed()
    }

    /// Writes queued samples up to what the server accepts; once everything is with the
    /// server, asks it to report the drain. Runs under the lock, and as the stream's write
    /// callback.
    func feed() {
        guard let stream, host?.isConnectionReady == true else { return }
        let writable = stream.writableSize
        if writable > 0 && !queue.isEmpty {
            // What is written now is heard after what the server still holds.
            var playout = (host?.guardTime ?? 0) + latency
            let written = queue.dequeue(upTo: writable / 2) { run in
                try? stream.write(run)
                host?.handedToServer(run, heardAt: playout)
                playout += Double(run.count) / Double(AudioFormat.synthesis.sampleRate)
            }
            if written > 0 { wroteSinceDrainRequest = true }
        }
        if queue.isEmpty && isActive && drainOperation == nil { requestDrain() }
    }

    /// Asks the server to report when everything written has been played.
    /// A drain also starts a clip shorter than the prebuffer.
    private func requestDrain() {
        guard let stream else { return }
        wroteSinceDrainRequest = false
        drainOperation = stream.drain { [unowned self] success in drainFinished(success: success) }
    }

    /// The server played everything written before the request (mainloop thread).
    private func drainFinished(success: Bool) {
        drainOperation = nil
        guard success, isActive, queue.isEmpty else { return }
        if wroteSinceDrainRequest {
            requestDrain()  // more audio arrived after the request: wait for that too
        } else {
            finish()
        }
    }

    /// Playback is over: the capture reopens past the tail still in flight, drain waiters return.
    private func finish() {
        let tail = latency + (host?.playbackTailSeconds ?? 0)
        ended(tailSamples: AudioFormat.recognition.sampleCount(forSeconds: min(tail, 0.5)))
        let waiters = drainWaiters
        drainWaiters = []
        waiters.forEach { $0.resume() }
    }

    /// Playback is no longer active; the session hears of it once.
    func ended(tailSamples: Int) {
        if isActive {
            isActive = false
            host?.playbackOver(tailSamples: tailSamples)
        }
        playbackStart = nil
        playoutDue = nil
        drainAsked = nil
    }

    /// Waits until the server reports everything queued as played; throws `WaitAbandoned`
    /// when it has not, `drainGrace` past the playout's due time (`watchDrain`).
    func drain() async throws {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            mainloop.withLock {
                guard isActive else { return continuation.resume() }
                drainWaiters.append(continuation)
                watchDrain()
                if queue.isEmpty && drainOperation == nil { requestDrain() }
            }
        }
    }

    /// Drops the queue and flushes the server's buffer; returns once the server has
    /// acknowledged the flush, or `flushBound` later without it.
    func cancel() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            mainloop.withLock {
                let wasActive = isActive
                if pausedByListener {
                    pausedByListener = false
                    applyCork()
                }
                queue.removeAll()
                cancelDrainOperation()
                if wasActive { finish() }
                guard wasActive, host?.isConnectionReady == true, let stream, stream.flush({ [unowned self] _ in flushFinished() }) != nil else {
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
    func abandon(throwing error: (any Error)?) {
        queue.removeAll()
        cancelDrainOperation()
        ended(tailSamples: 0)
        isInterrupted = false
        pausedByListener = false
        let waiters = drainWaiters
        drainWaiters = []
        for waiter in waiters {
            if let error { waiter.resume(throwing: error) } else { waiter.resume() }
        }
        flushFinished()
    }

    /// The stream's started callback: the server began playing (mainloop thread).
    func started() {
        guard let start = playbackStart else { return }
        playbackStart = nil
        host?.playbackStartLatency(start.duration(to: .now))
    }

    /// The stream's event callback: another application asks us to pause or resume.
    func event(_ event: PulseStream.Event) {
        switch event {
        case .requestCork where !isInterrupted:
            isInterrupted = true
            applyCork()
            host?.report(.interrupted)
        case .requestUncork where isInterrupted:
            isInterrupted = false
            applyCork()
            host?.report(.interruptionEnded)
        default:
            logger.debug("playback stream event \(event.name) ignored")
        }
    }

    /// Holds playback where it is, or plays on (a person barged in, or was not a person after all).
    func setPaused(_ paused: Bool) {
        mainloop.withLock {
            guard pausedByListener != paused else { return }
            pausedByListener = paused
            applyCork()
        }
    }

    /// Corks the stream while another application or the listener holds it.
    private func applyCork() {
        let corked = isInterrupted || pausedByListener
        corkChanged(corked)
        _ = stream?.cork(corked)
    }
}
