/// How an `AudioSession` connects and how its two streams behave.
///
/// The defaults suit a dialogue at the desktop: the server's default devices,
/// `media.role=phone` on both streams (so the desktop ducks or corks music),
/// 2 ms capture fragments and a 40 ms playback target.
public struct AudioSessionOptions: Sendable, Equatable {
    /// Server address such as `unix:/run/user/1000/pulse/native`; nil uses `$PULSE_SERVER` or the default.
    public var server: String?
    /// Capture device (a PulseAudio source name); nil uses the server's default source.
    public var source: String?
    /// Playback device (a PulseAudio sink name); nil uses the server's default sink.
    public var sink: String?
    /// The name the server and the desktop's mixer show for us.
    public var applicationName: String
    /// `media.role` of the record stream.
    public var captureRole: String
    /// `media.role` of the playback stream. `phone` corks music players; another role
    /// (`music`) lets a phone call cork us instead.
    public var playbackRole: String
    /// Seconds of captured audio held for a slow consumer before the oldest is dropped.
    public var captureBufferSeconds: Double
    /// Size of one capture fragment in milliseconds: the server delivers audio this often, so
    /// it bounds the activation latency of a running stream. 2 ms costs 500 small wake-ups a
    /// second, which is nothing next to decoding.
    public var captureFragmentMilliseconds: Int
    /// Target length of the playback buffer in the server, in milliseconds.
    public var playbackTargetMilliseconds: Int
    /// Audio the server waits for before starting playback, in milliseconds. It is kept
    /// below one synthesized chunk so sound starts with the first chunk; a drain starts
    /// anything shorter.
    public var playbackPrebufferMilliseconds: Int
    /// Whether capture is discarded while the machine speaks (echo safety), when the session
    /// has no echo canceller. Turn off only with headphones, or to measure loopback latency.
    public var gatesCaptureDuringPlayback: Bool
    /// Whether the echo guard compares what the microphone hears with its predicted echo (true),
    /// or calls any sound during playback a person (false: the control that shows what an
    /// unguarded microphone hears).
    public var echoGuardCompares: Bool = true
    /// The echo canceller the session records and plays through, loaded on its server for
    /// `source` and `sink` at every connection (at `open()` and after the server returns);
    /// nil for none. With one loaded, capture stays open during playback and the echo guard
    /// listens to the microphone behind it on a third stream; `gatesCaptureDuringPlayback`
    /// then applies only while none could be loaded again after a reconnection.
    public var echoCancellation: EchoCancellation?
    /// The cookie to show the server, for a server that wants one other than libpulse's own
    /// (`$PULSE_COOKIE` or `~/.config/pulse/cookie`): a party's server on another machine.
    public var cookie: PulseCookie?
    /// First wait before reconnecting to a lost server, in seconds; it doubles up to `reconnectMaximumDelay`.
    public var reconnectInitialDelay: Double
    /// Longest wait between two reconnection attempts, in seconds.
    public var reconnectMaximumDelay: Double

    /// Creates options; every argument has a default suited to a dialogue.
    public init(server: String? = nil, source: String? = nil, sink: String? = nil,
                applicationName: String = "Parley", captureRole: String = "phone", playbackRole: String = "phone",
                captureBufferSeconds: Double = 10, captureFragmentMilliseconds: Int = 2,
                playbackTargetMilliseconds: Int = 40, playbackPrebufferMilliseconds: Int = 10,
                gatesCaptureDuringPlayback: Bool = true,
                reconnectInitialDelay: Double = 0.1, reconnectMaximumDelay: Double = 2) {
        self.server = server
        self.source = source
        self.sink = sink
        self.applicationName = applicationName
        self.captureRole = captureRole
        self.playbackRole = playbackRole
        self.captureBufferSeconds = captureBufferSeconds
        self.captureFragmentMilliseconds = captureFragmentMilliseconds
        self.playbackTargetMilliseconds = playbackTargetMilliseconds
        self.playbackPrebufferMilliseconds = playbackPrebufferMilliseconds
        self.gatesCaptureDuringPlayback = gatesCaptureDuringPlayback
        self.reconnectInitialDelay = reconnectInitialDelay
        self.reconnectMaximumDelay = reconnectMaximumDelay
    }
}

/// An echo canceller an `AudioSession` loads for its devices (`EchoCanceller`).
public struct EchoCancellation: Sendable, Equatable {
    /// Letters and digits that tell apart two cancellers of one process (a side's each).
    public var tag: String?

    /// A canceller named with `tag`.
    public init(tag: String? = nil) {
        self.tag = tag
    }
}
