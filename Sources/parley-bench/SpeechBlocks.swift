import Foundation

/// Two recordings of the same speech compared block by block: how many blocks of speech the
/// second has well below the first.
enum SpeechBlocks {
    /// Of `raw`'s 100 ms blocks of speech (within 20 dB of its loudest), how many `processed` has
    /// 6 dB or more below the median difference, after aligning the two (`processed` up to 0.3 s
    /// behind); the deepest such, in dB below the median.
    static func compare(raw: [Int16], processed: [Int16]) -> (lowered: Int, blocks: Int, deepest: Double) {
        let lag = lagOf(processed, behind: raw, frame: 80, most: 60) * 80
        let block = 1_600
        var levels: [(raw: Double, processed: Double)] = []
        var start = 0
        while start + block <= raw.count, start + lag + block <= processed.count {
            levels.append((rms(raw[start..<start + block]), rms(processed[start + lag..<start + lag + block])))
            start += block
        }
        let loudest = levels.map(\.raw).max() ?? 0
        let speech = levels.filter { $0.raw >= loudest / 10 && $0.raw > 0 }
        let differences = speech.map { 20 * log10(max($0.processed, 1) / $0.raw) }
        guard !differences.isEmpty else { return (0, 0, 0) }
        let median = differences.sorted()[differences.count / 2]
        let below = differences.map { $0 - median }
        return (below.filter { $0 <= -6 }.count, differences.count, below.min() ?? 0)
    }

    /// How many `frame`-sample frames `late` lags `early` (0…`most`), by their level envelopes.
    static func lagOf(_ late: [Int16], behind early: [Int16], frame: Int, most: Int) -> Int {
        func envelope(_ samples: [Int16]) -> [Double] {
            stride(from: 0, to: samples.count - frame, by: frame).map { rms(samples[$0..<$0 + frame]) }
        }
        let (a, b) = (envelope(early), envelope(late))
        var best = (lag: 0, score: -Double.infinity)
        for lag in 0...most {
            let count = min(a.count, b.count - lag)
            guard count > 0 else { break }
            var score = 0.0
            for index in 0..<count { score += a[index] * b[index + lag] }
            if score > best.score { best = (lag, score) }
        }
        return best.lag
    }

    static func rms(_ samples: ArraySlice<Int16>) -> Double {
        guard !samples.isEmpty else { return 0 }
        return (samples.reduce(0.0) { $0 + Double($1) * Double($1) } / Double(samples.count)).squareRoot()
    }
}
