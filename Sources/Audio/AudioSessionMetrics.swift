/// What the audio session measured about itself, for benchmarks and `parley doctor`.
public struct AudioSessionMetrics: Sendable, Equatable {
    /// The last activation latency: `startListening()` (or the end of playback, when it
    /// was called during playback) → the first captured sample delivered.
    public var activationLatency: Duration?
    /// The last playback start latency: the first chunk enqueued after silence → the
    /// server starting to play it.
    public var playbackStartLatency: Duration?
    /// Captured chunks dropped because the consumer was too slow.
    public var droppedCaptureChunks: Int
    /// Times the session reconnected after losing the server.
    public var reconnections: Int

    /// Creates metrics; a new session has measured nothing yet.
    public init(activationLatency: Duration? = nil, playbackStartLatency: Duration? = nil,
                droppedCaptureChunks: Int = 0, reconnections: Int = 0) {
        self.activationLatency = activationLatency
        self.playbackStartLatency = playbackStartLatency
        self.droppedCaptureChunks = droppedCaptureChunks
        self.reconnections = reconnections
    }
}
