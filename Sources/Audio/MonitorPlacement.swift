import ParleyCore

/// Where the speaker's monitor lies against the microphone, for `EchoSubtraction`: both are
/// record streams of one server at 16 kHz, so each is a steady count of samples. Once both have
/// run `alignmentSeconds`, the earliest arrival time less the samples before it gives each
/// stream's origin, and their difference places the monitor (`offset`), read `leadSeconds`
/// ahead, so that an echo the placement puts up to that much too early is still modelled.
///
/// A stream whose first samples came late (pipewire-pulse's monitor can start about 0.55 s
/// behind and catch up in a burst) moves its origin earlier when it catches up. Where that
/// moves the placement by more than `movedSamples` and it stays there `settleSeconds` (a burst
/// moves it piece by piece), the monitor is placed again: arrival jitter never moves an
/// earliest arrival that far, a stream that caught up does.
struct MonitorPlacement {
    static let alignmentSeconds = 0.5
    static let leadSeconds = 0.04
    static let movedSamples = 320
    static let settleSeconds = 0.1

    /// What an arrival did to the placement.
    enum Change { case none, placed, placedAgain }

    private let rate = Double(AudioFormat.recognition.sampleRate)
    private(set) var microphoneCount = 0, referenceCount = 0
    private var microphoneOrigin = Double.infinity, referenceOrigin = Double.infinity
    private var firstArrival: Double?
    /// Where the monitor's sample for microphone sample `m` is: `m + offset`; nil until placed.
    private(set) var offset: Int?
    /// How many times the monitor was placed again, its origin having moved.
    private(set) var replacements = 0
    /// A placement the origins moved to, and since when they give it.
    private var moved: (offset: Int, time: Double)?

    /// `count` microphone samples arrived at `time`; `mayMove`: whether it may be placed again now.
    mutating func microphoneArrived(_ count: Int, at time: Double, mayMove: Bool) -> Change {
        microphoneCount += count
        microphoneOrigin = min(microphoneOrigin, time - Double(microphoneCount) / rate)
        return update(at: time, mayMove: mayMove)
    }

    /// `count` monitor samples arrived at `time`; `mayMove`: whether it may be placed again now.
    mutating func referenceArrived(_ count: Int, at time: Double, mayMove: Bool) -> Change {
        referenceCount += count
        referenceOrigin = min(referenceOrigin, time - Double(referenceCount) / rate)
        return update(at: time, mayMove: mayMove)
    }

    /// The placement the origins give now (both known).
    private var fromOrigins: Int {
        Int(((microphoneOrigin - referenceOrigin) * rate).rounded()) + Int(Self.leadSeconds * rate)
    }

    private mutating func update(at time: Double, mayMove: Bool) -> Change {
        guard let offset else {
            if firstArrival == nil { firstArrival = time }
            guard let firstArrival, time - firstArrival >= Self.alignmentSeconds, microphoneCount > 0, referenceCount > 0,
                  microphoneOrigin.isFinite, referenceOrigin.isFinite else { return .none }
            self.offset = fromOrigins
            return .placed
        }
        let now = fromOrigins
        guard abs(now - offset) > Self.movedSamples else {
            moved = nil
            return .none
        }
        guard let since = moved, abs(since.offset - now) <= Self.movedSamples / 4 else {
            moved = (now, time)
            return .none
        }
        guard mayMove, time - since.time >= Self.settleSeconds else { return .none }
        (self.offset, moved) = (now, nil)
        replacements += 1
        return .placedAgain
    }
}
