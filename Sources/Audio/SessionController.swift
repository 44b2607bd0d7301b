import Logging
import ParleyCore
import Synchronization

/// The PulseAudio side of an `AudioSession`: one context and two streams on one
/// threaded mainloop, and the state their callbacks share. A session on an
/// `AudioConnection` has its streams on that connection's context and mainloop.
///
/// State logic only: every libpulse call goes through the wrappers (`PulseContext`,
/// `PulseStream`, `PulseOperation`). Every stored `var` of this class, and every
/// wrapper in it, is guarded by the mainloop lock (`mainloop.withLock`); callbacks
/// already hold it. What a consumer reads without the lock lives in `CaptureBuffer`
/// and `observed`.
final class SessionController: @unchecked Sendable {  // every stored var, wrappers included: the mainloop lock
    /// Where the session is in its life.
    enum Phase: Equatable {
        case new, connecting, ready, lost, closed
    }

    /// Figures readable from any thread without the mainloop lock.
    struct Observed {
        var inputLevel = LevelMeter()
        var metrics = AudioSessionMetrics()
    }

    let options: AudioSessionOptions
    let logger: Logger
    /// False for a connection that only asks the server questions (device lists).
    let wantsStreams: Bool
    let mainloop: ThreadedMainloop
    /// The connection shared with other sessions, or nil for a connection of its own.
    let connection: AudioConnection?
    let capture: CaptureBuffer
    let events: AsyncStream<AudioEvent>
    let eventSink: AsyncStream<AudioEvent>.Continuation
    let observed = Mutex(Observed())
    /// The echo guard's time base.
    let clockOrigin = ContinuousClock.now

    // Guarded by the mainloop lock.
    var phase = Phase.new
    /// The context of a session with a connection of its own.
    var ownContext: PulseContext?
    /// The context the streams are on: the shared connection's, or its own.
    var context: PulseContext? { connection.map(\.context) ?? ownContext }
    /// The devices the current connection's streams open (see `StreamDevices`).
    var devices: StreamDevices
    /// The echo canceller loaded for this session's devices, while one is.
    var canceller: EchoCanceller?
    var recordStream: PulseStream?
    /// The microphone behind an echo canceller, for the echo guard alone (see `AudioSessionOptions`).
    var guardStream: PulseStream?
    /// The speaker's monitor behind an echo canceller, the reference of `echoSubtraction`.
    var referenceStream: PulseStream?
    /// Takes the echo out of `guardStream`'s microphone, with `referenceStream` (see `EchoSubtraction`).
    var echoSubtraction: EchoSubtraction?
    var connectWaiter: CheckedContinuation<Void, any Error>?
    var gate: CaptureGate
    /// Judges captured audio against what playback hands the server (see `EchoGuard`).
    var echoGuard: EchoGuard
    /// Captured audio comes from the microphone behind the canceller (`guardStream`), not its source.
    var deliversMicrophone = false
    var activationStart: ContinuousClock.Instant?
    /// The speaker half: the playback stream, its queue, drain, flush and cork.
    let playback: SessionPlayback

    /// Creates the engine and starts its mainloop thread; nothing is connected yet.
    init(options: AudioSessionOptions, logger: Logger, wantsStreams: Bool = true, connection: AudioConnection? = nil) {
        self.options = options
        self.logger = logger
        self.wantsStreams = wantsStreams
        self.connection = connection
        mainloop = connection?.mainloop ?? ThreadedMainloop()
        playback = SessionPlayback(mainloop: mainloop, logger: logger)
        connection?.sessionCreated()
        devices = StreamDevices(options)
        gate = CaptureGate(closesDuringPlayback: options.gatesCaptureDuringPlayback)
        echoGuard = EchoGuard(compares: options.echoGuardCompares)
        (events, eventSink) = AsyncStream.makeStream(of: AudioEvent.self, bufferingPolicy: .bufferingNewest(256))
        let capacity = AudioFormat.recognition.sampleCount(forSeconds: options.captureBufferSeconds)
        let eventSink = eventSink
        capture = CaptureBuffer(capacity: max(capacity, 1)) { [eventSink, logger] dropped in
            logger.warning("the capture consumer fell behind; dropped \(dropped) chunks of the oldest audio")
            eventSink.yield(.captureOverrun(droppedChunks: dropped))
        }
        playback.host = self
    }

    /// Reports an event to the session's listener.
    func report(_ event: AudioEvent) {
        logger.debug("audio event: \(event)")
        eventSink.yield(event)
    }

    /// Updates the figures readable without the mainloop lock.
    func updateObserved(_ body: (inout Observed) -> Void) {
        observed.withLock { body(&$0) }
    }

    /// Seconds since the session was created, on the echo guard's clock.
    var guardTime: Double {
        let elapsed = clockOrigin.duration(to: .now).components
        return Double(elapsed.seconds) + Double(elapsed.attoseconds) * 1e-18
    }

    /// libpulse's message for the context's last error.
    func contextError() -> String {
        guard let context else { return "no connection" }
        return context.lastError.description
    }
}
