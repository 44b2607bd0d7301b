/// The pace at which audio arrives: as it is spoken (capture), or faster (a file read
/// ahead). A speculative decode pays only at the pace of speech, where it runs while the
/// endpoint's silence is still being heard.
struct ArrivalPace {
    /// How far back the pace is measured, in wall-clock time.
    static let span = Duration.milliseconds(250)
    private var received = 0
    private var arrivals: [(samples: Int, at: ContinuousClock.Instant)] = []

    /// Notes `samples` more samples arriving now.
    mutating func arrived(_ samples: Int, at now: ContinuousClock.Instant = .now) {
        received += samples
        arrivals.append((received, now))
        while arrivals.count > 2, now - arrivals[1].at > Self.span { arrivals.removeFirst() }
    }

    /// Whether the audio of the last `span` came at most about twice as fast as it plays (with
    /// 0.1 s of slack for a capture's uneven chunks).
    var isRealTime: Bool {
        guard let first = arrivals.first, let last = arrivals.last, arrivals.count > 1 else { return true }
        let audio = Double(last.samples - first.samples) / 16_000
        let wall = (last.at - first.at) / .seconds(1)
        return audio <= 2 * wall + 0.1
    }
}
