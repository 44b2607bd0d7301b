/// Where captured audio comes from: a microphone through the audio session,
/// or a fake in tests.
///
/// A source is opened once and kept for the whole conversation. Listening is a
/// gate, not a stream open: while the gate is closed (the machine is speaking)
/// captured audio is discarded, so the machine never hears itself.
public protocol AudioSource: AnyObject, Sendable {
    /// The format of captured chunks (16 kHz mono for the recognizer).
    var captureFormat: AudioFormat { get }

    /// The captured audio, one stream for the life of the source, for a single
    /// consumer. Only chunks captured while listening are delivered.
    var capturedChunks: AsyncStream<PCMChunk> { get }

    /// Opens the gate: chunks captured from now on are delivered.
    func startListening() async throws

    /// Closes the gate and drops whatever was captured but not yet consumed.
    func stopListening() async

    /// Delivers the microphone as it is (true), not through the source's echo canceller
    /// (false, the default). A person speaking over playback is heard from their first
    /// syllable, which a canceller suppresses while it still hears the machine.
    func hearMicrophoneDirectly(_ direct: Bool) async
}

extension AudioSource {
    /// A source without a canceller has only the microphone as it is.
    public func hearMicrophoneDirectly(_ direct: Bool) async {}
}

/// Where synthesized audio goes: the speaker through the audio session, a
/// file, memory, or a fake in tests.
public protocol AudioSink: AnyObject, Sendable {
    /// Queues a chunk for playback; sound starts with the first chunk.
    func enqueue(_ chunk: PCMChunk) async throws

    /// Waits until everything queued has been played.
    func drain() async throws

    /// Drops everything queued and stops playback at once, with no audible tail.
    func cancelPlayback() async

    /// Holds playback where it is (nothing more is heard, nothing is dropped); a pending
    /// `drain()` waits. Idempotent.
    func pausePlayback() async

    /// Plays on from where `pausePlayback()` held it. Idempotent.
    func resumePlayback() async

    /// Releases what the sink holds (a connection, a file); call it once, after the last drain.
    func close() async
}

extension AudioSink {
    /// Sinks nobody hears live (a file, memory) have nothing to hold.
    public func pausePlayback() async {}

    /// Sinks nobody hears live (a file, memory) have nothing to hold.
    public func resumePlayback() async {}
}

/// Something the audio session reports on its own.
public enum AudioEvent: Sendable, Equatable {
    /// Another application asked us to pause (the server's cork request).
    case interrupted
    /// The interruption ended; paused playback resumes.
    case interruptionEnded
    /// The audio server went away; the message says what happened.
    case serverLost(String)
    /// The server is back and both streams are open again.
    case reconnected
    /// After the server came back, the echo canceller could not be loaded again (the reason):
    /// the session records and plays on the devices behind it and closes the microphone
    /// while it speaks.
    case echoCancellationLost(String)
    /// A slow consumer made the capture buffer drop its oldest chunks.
    case captureOverrun(droppedChunks: Int)
}
