/// The shape of a stream of signed 16-bit interleaved PCM samples.
///
/// Every stage in Parley exchanges 16-bit integer PCM: PulseAudio, PocketSphinx
/// and eSpeak NG all speak it natively, so no stage converts sample types.
public struct AudioFormat: Sendable, Hashable, CustomStringConvertible {
    /// Frames per second.
    public var sampleRate: Int
    /// Interleaved channels per frame.
    public var channels: Int

    /// Creates a format; both values must be positive.
    public init(sampleRate: Int, channels: Int = 1) {
        precondition(sampleRate > 0 && channels > 0, "an audio format needs a positive rate and channel count")
        self.sampleRate = sampleRate
        self.channels = channels
    }

    /// 16 kHz mono: what the recognizer decodes, and what capture delivers.
    public static let recognition = AudioFormat(sampleRate: 16_000, channels: 1)

    /// 22.05 kHz mono: what eSpeak NG produces.
    public static let synthesis = AudioFormat(sampleRate: 22_050, channels: 1)

    /// Seconds of audio held by `sampleCount` interleaved samples.
    public func duration(ofSamples sampleCount: Int) -> Double {
        Double(sampleCount) / Double(sampleRate * channels)
    }

    /// Interleaved samples needed for `seconds` of audio.
    public func sampleCount(forSeconds seconds: Double) -> Int {
        Int((seconds * Double(sampleRate)).rounded()) * channels
    }

    public var description: String { "\(sampleRate) Hz, \(channels == 1 ? "mono" : "\(channels) channels") s16" }
}
