/// Fills the empty upper band of narrowband audio (e.g. 8 kHz telephone
/// recordings) with faint noise before it reaches the 16 kHz model.
///
/// Upsampled 8 kHz audio has nothing above 4 kHz, where the en-US acoustic
/// model expects at least room noise; the near-zero energies of those filter
/// banks throw the decoder off. The fill is white noise at about −52 dBFS, kept
/// only above the source's Nyquist frequency; how its level was chosen is in
/// docs/recognition.md. The noise is seeded, so the same audio always decodes the same.
enum NarrowbandFill {
    /// Peak amplitude of the noise, on the −1…1 scale.
    static let amplitude: Float = 0.006
}

/// `NarrowbandFill` applied block by block: each block of samples at the model's
/// rate gets its noise, minus what a conversion to the source's rate and back keeps
/// of that noise. The low band lags behind the filters, so samples wait for it here.
final class NarrowbandFiller {
    private var generator = SeededNoise(seed: 0x5EED)
    private let down: SampleRateConverter
    private let up: SampleRateConverter
    private var waiting: [Float] = []
    private var low: [Float] = []

    /// A filler for audio that came from `sourceRate` and is now at `rate`.
    init(sourceRate: Int, rate: Int, path: String) throws {
        down = try SampleRateConverter(from: rate, to: sourceRate, path: path)
        up = try SampleRateConverter(from: sourceRate, to: rate, path: path)
    }

    /// The filled samples ready now; with `end`, all the rest (where the low band ran out, none is taken).
    func process(_ samples: [Float], end: Bool) throws -> [Float] {
        let noise = samples.map { _ in generator.next() * NarrowbandFill.amplitude }
        waiting += zip(samples, noise).map { $0 + $1 }
        low += try up.process(down.process(noise, end: end), end: end)
        let ready = end ? waiting.count : min(waiting.count, low.count)
        let filled = (0..<ready).map { index in waiting[index] - (index < low.count ? low[index] : 0) }
        waiting.removeFirst(ready)
        low.removeFirst(min(ready, low.count))
        return filled
    }
}

/// SplitMix64: a small, fast, seeded generator of uniform floats in −1…1.
struct SeededNoise {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> Float {
        state &+= 0x9E37_79B9_7F4A_7C15
        var value = state
        value = (value ^ (value >> 30)) &* 0xBF58_476D_1CE4_E5B9
        value = (value ^ (value >> 27)) &* 0x94D0_49BB_1331_11EB
        value ^= value >> 31
        return Float(value >> 40) / Float(1 << 23) - 1
    }
}
