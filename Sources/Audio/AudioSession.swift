public import Logging
public import ParleyCore

/// One persistent play-and-record PulseAudio session for a whole conversation.
///
/// `open()` connects once and creates one record stream (16 kHz mono, what the
/// recognizer decodes; the server resamples) and one playback stream (22.05 kHz
/// mono, what the synthesizer produces). Both stay open until `close()`, so a
/// turn never waits for a stream to open: listening only opens a gate on a
/// stream that is already running.
///
/// ```swift
/// let session = AudioSession(options: AudioSessionOptions(sink: "alsa_output.usb"), logger: logger)
/// try await session.open()
/// try await session.startListening()
/// for await chunk in session.capturedChunks { … }
/// ```
///
/// Echo safety: while anything plays, captured audio is discarded; the gate
/// reopens when the server reports the playback drained, past the tail still
/// in flight. The server going away is reported on `events` and the session
/// reconnects on its own, keeping its state (listening or not, devices).
public final class AudioSession: AudioSource, AudioSink, Sendable {
    /// How the session connects and buffers.
    public let options: AudioSessionOptions
    private let engine: SessionController

    /// Creates a session; nothing is connected until `open()`. On `connection`, its streams
    /// share that connection with the other sessions on it (its `server` and `cookie` options
    /// are the connection's); without, it has a connection of its own.
    public init(options: AudioSessionOptions = AudioSessionOptions(), connection: AudioConnection? = nil, logger: Logger) {
        self.options = options
        engine = SessionController(options: options, logger: logger, connection: connection)
        let capture = engine.capture
        capturedChunks = AsyncStream(unfolding: { await capture.next() })
    }

    deinit {
        engine.closeNow()
    }

    /// Connects to the server and creates both streams; returns when both are running.
    /// Throws `AudioServerUnavailable` when there is no server (callers turn that into
    /// typed-only mode) and `AudioSessionError` when a device is missing.
    public func open() async throws {
        try await engine.connect(failurePhase: .new)
    }

    /// Closes both streams and the connection; the capture and event streams end.
    public func close() async {
        await engine.close()
    }

    /// Whether both streams are running now (false while reconnecting).
    public var isConnected: Bool { engine.mainloop.withLock { engine.phase == .ready } }

    /// Whether the session records and plays through an echo canceller now
    /// (`AudioSessionOptions.echoCancellation`, loaded again at each connection).
    public var cancelsEcho: Bool { engine.mainloop.withLock { engine.canceller != nil } }

    /// What the session reports on its own: interruptions, server loss and return, overruns.
    /// One stream for the life of the session, for one listener.
    public var events: AsyncStream<AudioEvent> { engine.events }

    /// Loudness of the capture since the previous read (listening or not), for a level meter:
    /// RMS over the fragments captured since then and their highest peak, so a meter that
    /// redraws at any pace misses no peak.
    public var inputLevel: AudioLevel { engine.observed.withLock { $0.inputLevel.read() } }

    /// Latencies and counters measured so far.
    public var metrics: AudioSessionMetrics {
        var metrics = engine.observed.withLock { $0.metrics }
        metrics.droppedCaptureChunks = engine.capture.droppedChunks
        return metrics
    }

    /// Every sink and source on the server, the defaults marked.
    public func devices() async throws -> [AudioDevice] {
        try await engine.devices()
    }

    /// Lists the sinks and sources of a server without opening any stream.
    public static func devices(server: String? = nil, logger: Logger) async throws -> [AudioDevice] {
        let engine = SessionController(options: AudioSessionOptions(server: server), logger: logger, wantsStreams: false)
        do {
            try await engine.connect(failurePhase: .new)
            let devices = try await engine.devices()
            await engine.close()
            return devices
        } catch {
            await engine.close()
            throw error
        }
    }

    // MARK: AudioSource

    /// 16 kHz mono s16: what the recognizer decodes.
    public var captureFormat: AudioFormat { .recognition }

    /// Captured audio while listening, in fragments of a few milliseconds. Bounded: a consumer
    /// that falls `captureBufferSeconds` behind loses the oldest chunks (reported as
    /// `captureOverrun`). Cancelling the consuming task ends the stream, so consume it from
    /// one long-lived task.
    public let capturedChunks: AsyncStream<PCMChunk>

    /// Opens the gate: chunks captured from now on are delivered (after any playback drains).
    public func startListening() async throws {
        try engine.startListening()
    }

    /// Closes the gate and drops what was captured but not consumed.
    public func stopListening() async {
        engine.stopListening()
    }

    /// With an echo canceller, delivers the microphone behind it (true) or its cancelled
    /// source (false); without one, nothing changes.
    public func hearMicrophoneDirectly(_ direct: Bool) async {
        engine.setDeliversMicrophone(direct)
    }

    // MARK: AudioSink

    /// The format `enqueue` accepts: 22.05 kHz mono s16, what the synthesizer produces.
    public var playbackFormat: AudioFormat { .synthesis }

    /// Queues a chunk; sound starts with the first one. Throws for another format, and
    /// `AudioSessionError.serverLost` while reconnecting.
    public func enqueue(_ chunk: PCMChunk) async throws {
        try engine.enqueue(chunk)
    }

    /// Waits until the server reports everything queued as played; throws `serverLost`
    /// when the server goes away first. Returns at once when nothing plays.
    public func drain() async throws {
        try await engine.playback.drain()
    }

    /// Drops what is queued and flushes the server's buffer, so nothing more is heard.
    /// A pending `drain()` returns.
    public func cancelPlayback() async {
        await engine.cancelPlayback()
    }

    /// Corks the playback stream: nothing more is heard, nothing is dropped, `drain()` waits.
    public func pausePlayback() async {
        engine.playback.setPaused(true)
    }

    /// Uncorks the playback stream: it plays on from where it was held.
    public func resumePlayback() async {
        engine.playback.setPaused(false)
    }
}
