/// The room between the speaker and the microphone as the echo guard sees it: how late the
/// machine's own playback comes back, and how loud.
///
/// It keeps 20 ms frames of RMS for what was handed to the server (the reference, by the time
/// it will be played) and for what the microphone heard (by the time it arrived), a few
/// seconds of each. Every 200 ms it finds the lag (0…`longestLag` frames) at which the
/// microphone's envelope correlates best (Pearson's r) with the reference's, over the frames
/// the guard lets it learn from; at that lag, the echo's gain (see `gain`). Every constant
/// delay (the output buffer, the room, a canceller, the capture buffer) is in the lag.
struct EchoPath {
    /// The length of one frame.
    static let frameSeconds = 0.02
    /// The latest echo looked for: 600 ms.
    static let longestLag = 30
    /// Frames kept on each side: 4 s.
    static let history = 200
    /// Reference frames below this RMS cannot make an echo worth guarding against (−50 dBFS).
    static let referenceFloor = 0.003
    /// Frames of learning needed before the first estimate (0.6 s).
    static let minimumFrames = 30

    /// The frame `time` (seconds) falls in.
    static func frame(at time: Double) -> Int { Int((time / frameSeconds).rounded(.down)) }

    private var references: [Int: Double] = [:]
    private var microphones: [Int: (rms: Double, learn: Bool)] = [:]
    private var framesSinceEstimate = 0
    /// The echo's delay in frames; nil until learned.
    private(set) var lag: Int?
    /// The echo's level against its reference: the median, over windows of `window` frames, of
    /// the energy heard over the energy played (at the lag, the loudest of seven frames), as an
    /// amplitude. A median, so the onset of a person, heard before the guard is sure of them,
    /// moves it little.
    private(set) var gain = 0.0
    /// Frames in one window of the guard.
    static let window = 8

    /// A reference frame written at `time`.
    mutating func reference(_ rms: Double, at time: Double) {
        let frame = Self.frame(at: time)
        references[frame] = max(references[frame] ?? 0, rms)
        if references.count > 2 * Self.history { references = references.filter { $0.key > frame - Self.history - Self.longestLag } }
    }

    /// Whether anything played recently enough to be heard in `frame`.
    func playbackReaches(_ frame: Int) -> Bool {
        (frame - Self.longestLag - 1...frame).contains { (references[$0] ?? 0) >= Self.referenceFloor }
    }

    /// The echo expected in `frame`; nil until the room is learned.
    func predictedEcho(at frame: Int) -> Double? {
        guard let lag else { return nil }
        return gain * loudestReference(around: frame - lag)
    }

    /// A microphone frame; `learn` when only the machine could be heard in it.
    mutating func microphone(_ rms: Double, at frame: Int, learn: Bool) {
        microphones[frame] = (rms, learn)
        if microphones.count > 2 * Self.history { microphones = microphones.filter { $0.key > frame - Self.history } }
        framesSinceEstimate += 1
        if framesSinceEstimate >= 10 { estimate(upTo: frame) }
    }

    /// Forgets the room, keeping what was played: after a stall the echo may come back at
    /// another lag, and until it is learned again the guard declares nobody.
    mutating func forgetRoom() {
        microphones = [:]
        framesSinceEstimate = 0
        (lag, gain) = (nil, 0)
    }

    /// The loudest reference frame within three frames of `frame`: the lag is found to a frame,
    /// and the server's timing to a little more.
    private func loudestReference(around frame: Int) -> Double {
        (frame - 3...frame + 3).reduce(0) { max($0, references[$1] ?? 0) }
    }

    private mutating func estimate(upTo newest: Int) {
        framesSinceEstimate = 0
        let frames = microphones.filter { $0.key > newest - Self.history && $0.value.learn }
            .filter { frame in playbackReaches(frame.key) }
        guard frames.count >= Self.minimumFrames else { return }
        guard frames.contains(where: { $0.value.rms > 0 }) else {
            (lag, gain) = (0, 0)  // a silent microphone: no echo comes back at all
            return
        }
        let scores = (0...Self.longestLag).map { Self.correlation(frames, references, lag: $0) }
        guard var chosen = scores.indices.max(by: { scores[$0] < scores[$1] }), scores[chosen] > 0 else { return }
        // The lag stays where it was unless another fits clearly better: speech's syllable
        // rhythm makes the envelope correlate at other lags too.
        if let lag, scores[lag] * 1.1 >= scores[chosen] { chosen = lag }
        let best = (lag: chosen, score: scores[chosen])
        let lagged = frames.keys.sorted().compactMap { frame -> (frame: Int, heard: Double, played: Double)? in
            let played = loudestReference(around: frame - best.lag)
            return played >= Self.referenceFloor ? (frame, frames[frame]!.rms, played) : nil
        }
        let windows = Self.windowRatios(lagged.map { ($0.heard * $0.heard, $0.played * $0.played) })
        guard windows.count >= Self.minimumFrames / 2 else { return }
        lag = best.lag
        gain = windows[windows.count / 2].squareRoot()
    }

    /// Pearson's correlation of the heard frames' RMS with the reference's `lag` frames earlier.
    private static func correlation(_ frames: [Int: (rms: Double, learn: Bool)], _ references: [Int: Double],
                                    lag: Int) -> Double {
        let pairs = frames.map { ($0.value.rms, references[$0.key - lag] ?? 0) }
        let count = Double(pairs.count)
        let meanHeard = pairs.reduce(0) { $0 + $1.0 } / count
        let meanPlayed = pairs.reduce(0) { $0 + $1.1 } / count
        var (product, heardVariance, playedVariance) = (0.0, 0.0, 0.0)
        for (heard, played) in pairs {
            product += (heard - meanHeard) * (played - meanPlayed)
            heardVariance += (heard - meanHeard) * (heard - meanHeard)
            playedVariance += (played - meanPlayed) * (played - meanPlayed)
        }
        guard heardVariance > 0, playedVariance > 0 else { return 0 }
        return product / (heardVariance * playedVariance).squareRoot()
    }

    /// Heard over played energy in each window of `window` consecutive frames, sorted.
    private static func windowRatios(_ energies: [(heard: Double, played: Double)]) -> [Double] {
        guard energies.count >= window else { return [] }
        var ratios: [Double] = []
        for start in 0...(energies.count - window) {
            let slice = energies[start..<start + window]
            let played = slice.reduce(0) { $0 + $1.played }
            if played > 0 { ratios.append(slice.reduce(0) { $0 + $1.heard } / played) }
        }
        return ratios.sorted()
    }
}
