import ParleyCore

/// Tells a person speaking over the machine's own playback from that playback's echo,
/// by level: the second guard behind the server's echo canceller.
///
/// The guard hears the microphone as it is (before any canceller) and knows every run of
/// samples handed to the server for playback (the reference). Both become 20 ms frames of
/// RMS on one timeline. `EchoPath` learns the room from them: how late the echo arrives and
/// how loud it is against the reference. Its prediction for a frame is that gain times the
/// loudest reference frame at the lag, three frames either side.
///
/// A person is declared when a window of `EchoPath.window` frames (160 ms, at least
/// `onsetFrames` of them) holds more than `margin` times the energy the echo predicts, and
/// more than the `floor`; they stay declared until `hangoverFrames` quiet frames in a row.
/// Until the path is learned (0.6 s of playback) the guard declares nobody. Judging the
/// microphone before the canceller makes the guard as good with a canceller that removes
/// 30 dB as with one that removes nothing, and blind to the canceller's own suppression of
/// a person during double talk. When the echo is as loud as the person, a window holds
/// about twice the echo's energy, under the margin: the guard then waits for a pause in the
/// machine's speech.
///
/// A stall (no microphone audio for `stallSeconds`, then all of it at once: the server or
/// Parley stopped, as a busy or virtual machine stops them) can move the echo against what was
/// played, by as much as the stall: the guard then forgets the room and learns it again.
///
/// With `compares` false the guard only asks whether there is sound above the floor: the
/// control that shows what listening during playback would hear without it.
struct EchoGuard {
    /// The guard's constants.
    struct Settings: Equatable {
        /// How much more energy than its predicted echo a window must hold (4.8 dB): over the
        /// echo alone, the windows of a loopback room stay below 1.8 times their median.
        var margin = 3.0
        /// RMS (of full scale) below which nothing counts as speech (−40 dBFS).
        var floor = 0.01
        /// Frames a window needs before it can declare a person.
        var onsetFrames = 5
        /// Quiet frames in a row that end a person.
        var hangoverFrames = 15
        /// A wait this long between two deliveries of microphone audio is a stall (they come
        /// every 10–20 ms).
        var stallSeconds = 0.12
    }

    let settings: Settings
    /// False for the control: any sound above the floor is a person.
    let compares: Bool
    private(set) var path = EchoPath()
    private var referencePending = FrameAccumulator()
    /// Where the next played sample falls on the timeline, as far as the last run said.
    private var scheduled = 0.0
    private var microphonePending = FrameAccumulator()
    /// The last frames' energy: heard, and expected from the echo.
    private var window: [(heard: Double, expected: Double)] = []
    private var quietRun = 0
    /// The verdict of the last whole microphone frame.
    private(set) var verdict = EchoVerdict.noPlayback
    /// When microphone audio last arrived.
    private var lastHeard: Double?
    /// Stalls seen so far.
    private(set) var stalls = 0

    init(settings: Settings = Settings(), compares: Bool = true) {
        self.settings = settings
        self.compares = compares
    }

    /// Samples handed to the server, at `rate` Hz, that will be played from `time` (seconds on
    /// the caller's clock: the write's time plus the stream's latency). Runs that follow each
    /// other closely are kept on one timeline, so frames straddle runs; a run after a gap starts
    /// a new frame.
    mutating func played(_ samples: UnsafeBufferPointer<Int16>, rate: Int, at time: Double) {
        let frameLength = max(1, Int(Double(rate) * EchoPath.frameSeconds))
        if abs(scheduled - time) > EchoPath.frameSeconds {
            scheduled = time
            referencePending = FrameAccumulator()
        }
        var frames: [Double] = []
        referencePending.add(samples, frameLength: frameLength) { frames.append($0) }
        let pending = Double(referencePending.count) / Double(rate)
        let end = scheduled + Double(samples.count) / Double(rate)
        for (index, rms) in frames.enumerated() {
            let frameEnd = end - pending - Double((frames.count - 1 - index) * frameLength) / Double(rate)
            path.reference(rms, at: frameEnd - EchoPath.frameSeconds / 2)
        }
        scheduled = end
    }

    /// Microphone samples (16 kHz, before any canceller) that arrived at `time`; returns the
    /// verdict that holds after them.
    @discardableResult
    mutating func heard(_ samples: UnsafeBufferPointer<Int16>, at time: Double) -> EchoVerdict {
        if let lastHeard, time - lastHeard > settings.stallSeconds { recoverFromStall() }
        lastHeard = time
        var frames: [Double] = []
        microphonePending.add(samples, frameLength: Int(16_000 * EchoPath.frameSeconds)) { frames.append($0) }
        for rms in frames { judge(rms, at: time) }
        return verdict
    }

    private mutating func judge(_ rms: Double, at time: Double) {
        let frame = EchoPath.frame(at: time)
        guard path.playbackReaches(frame) else {
            path.microphone(rms, at: frame, learn: false)
            window.removeAll()
            quietRun = 0
            verdict = .noPlayback
            return
        }
        let predicted = compares ? path.predictedEcho(at: frame) : 0
        window.append((rms * rms, pow2(predicted ?? .infinity)))
        if window.count > EchoPath.window { window.removeFirst() }
        let heard = window.reduce(0) { $0 + $1.heard }
        let expected = window.reduce(0) { $0 + $1.expected }
        // Energy over the window against the echo's: a person adds to it; the echo alone stays near 1.
        let ratio = expected > 0 ? heard / expected : (heard > 0 ? .infinity : 0)
        let threshold = settings.margin
        let loud = ratio > threshold && heard / Double(window.count) > pow2(settings.floor)
        // Every frame below the threshold teaches the room, unless a person speaks: over the echo
        // alone the window stays well below it, so the cut takes nothing from the echo's own
        // spread (a lower cut would bias the gain down, and the guard with it).
        path.microphone(rms, at: frame, learn: verdict != .person && ratio <= threshold)
        if verdict == .person {
            quietRun = loud ? 0 : quietRun + 1
            if quietRun >= settings.hangoverFrames { verdict = .echo }
        } else {
            verdict = loud && window.count >= settings.onsetFrames ? .person : .echo
            quietRun = 0
        }
    }

    /// The room is learned again from the next frames; nobody is a person until then.
    /// Playback was held (corked) and plays on: what the server held plays later than it was
    /// written for, by as much as the server buffered, so the guard forgets the room and learns
    /// it again, declaring nobody meanwhile.
    mutating func playbackResumed() {
        path.forgetRoom()
        window.removeAll()
        quietRun = 0
        if verdict == .person { verdict = .echo }
    }

    private mutating func recoverFromStall() {
        stalls += 1
        path.forgetRoom()
        window.removeAll()
        quietRun = 0
        if verdict == .person { verdict = .echo }
    }

    private func pow2(_ value: Double) -> Double { value * value }
}

/// Sums squares until a frame is whole, then hands its RMS (of full scale) on.
struct FrameAccumulator {
    private var sumOfSquares = 0.0
    /// Samples of the frame being filled.
    private(set) var count = 0

    mutating func add(_ samples: UnsafeBufferPointer<Int16>, frameLength: Int, frame: (Double) -> Void) {
        for sample in samples {
            let value = Double(sample) / 32_768
            sumOfSquares += value * value
            count += 1
            if count == frameLength {
                frame((sumOfSquares / Double(count)).squareRoot())
                sumOfSquares = 0
                count = 0
            }
        }
    }
}
