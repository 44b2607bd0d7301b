/// The devices a connection's streams open, and the echo canceller between them.
///
/// A canceller is a module on the server: it dies with the server, so a session that records
/// and plays through one loads it again at every connection. When the server refuses it after
/// a reconnection, the session records and plays on the devices behind it, closes the
/// microphone while it speaks, and says so once (`AudioEvent.echoCancellationLost`).
struct StreamDevices: Sendable, Equatable {
    /// The record stream's device (nil: the server's default).
    var source: String?
    /// The playback stream's device (nil: the server's default).
    var sink: String?
    /// The echo guard's own stream on the microphone behind a canceller, when there is one.
    var guardsMicrophone = false
    /// That microphone (nil: the server's default source).
    var guardSource: String?
    /// The speaker's monitor behind a canceller, recorded as the reference for `EchoSubtraction`.
    var referenceSource: String?
    /// Whether capture is discarded while the machine speaks.
    var gatesCaptureDuringPlayback: Bool

    /// The devices the options name, with no canceller.
    init(_ options: AudioSessionOptions) {
        source = options.source
        sink = options.sink
        gatesCaptureDuringPlayback = options.gatesCaptureDuringPlayback
    }

    /// Through `canceller`, loaded between the devices the options name.
    init(_ options: AudioSessionOptions, through canceller: EchoCanceller) {
        source = canceller.source
        sink = canceller.sink
        guardsMicrophone = true
        guardSource = options.source
        referenceSource = options.sink.map { "\($0).monitor" } ?? "@DEFAULT_MONITOR@"
        gatesCaptureDuringPlayback = false
    }

    /// A device asked for by name that the server replaced with another, given the names of the
    /// devices the record and playback streams were connected to; nil when each is the one
    /// asked for. PulseAudio refuses a missing device, but pipewire-pulse connects the stream
    /// to the default one instead, so a mistyped `--sink` would play on the wrong device
    /// without a word.
    func substitution(record: String?, playback: String?) -> AudioSessionError? {
        for (kind, requested, connected) in [("source", source, record), ("sink", sink, playback)] {
            // An index or a special name such as @DEFAULT_SINK@ is not the name the device reports.
            guard let requested, !requested.isEmpty, !requested.hasPrefix("@"), !requested.allSatisfy(\.isNumber),
                  let connected, connected != requested else { continue }
            return .deviceNotFound(kind: kind, name: requested)
        }
        return nil
    }
}
