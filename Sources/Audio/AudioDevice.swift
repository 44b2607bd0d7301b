/// A playback or capture device on the audio server.
public struct AudioDevice: Sendable, Equatable, Codable {
    /// Whether the device plays or captures.
    public enum Kind: String, Sendable, Codable {
        /// A playback device (PulseAudio sink).
        case sink
        /// A capture device (PulseAudio source), monitors of sinks included.
        case source
    }

    /// Sink or source.
    public var kind: Kind
    /// The name to pass to `--sink` or `--source`.
    public var name: String
    /// What the desktop shows, e.g. `Built-in Audio Analog Stereo`.
    public var description: String
    /// Native sample rate.
    public var sampleRate: Int
    /// Native channel count.
    public var channels: Int
    /// For a source: whether it only hears a sink (`<sink>.monitor`).
    public var isMonitor: Bool
    /// Whether it is the server's default of its kind.
    public var isDefault: Bool

    /// Creates a device description.
    public init(kind: Kind, name: String, description: String, sampleRate: Int, channels: Int,
                isMonitor: Bool = false, isDefault: Bool = false) {
        self.kind = kind
        self.name = name
        self.description = description
        self.sampleRate = sampleRate
        self.channels = channels
        self.isMonitor = isMonitor
        self.isDefault = isDefault
    }
}
