import Foundation

/// Summary figures of repeated timings, in milliseconds.
struct Timings: CustomStringConvertible {
    /// Every sample, in milliseconds, in the order taken.
    var samples: [Double]

    /// Creates a summary of `samples` (milliseconds).
    init(_ samples: [Double]) {
        precondition(!samples.isEmpty, "a timing summary needs samples")
        self.samples = samples
    }

    /// The value below which `fraction` of the samples lie (nearest rank).
    func percentile(_ fraction: Double) -> Double {
        let sorted = samples.sorted()
        let rank = Int((fraction * Double(sorted.count)).rounded(.up)) - 1
        return sorted[min(max(rank, 0), sorted.count - 1)]
    }

    var median: Double { percentile(0.5) }
    var p90: Double { percentile(0.9) }
    var minimum: Double { samples.min()! }
    var maximum: Double { samples.max()! }

    /// `median 1.23 ms, p90 2.34 ms (n = 20)`.
    var description: String {
        "median \(Self.format(median)) ms, p90 \(Self.format(p90)) ms (n = \(samples.count))"
    }

    /// Milliseconds with sensible precision.
    static func format(_ milliseconds: Double) -> String {
        let size = abs(milliseconds)
        return size >= 100 ? String(format: "%.0f", milliseconds)
            : size >= 1 ? String(format: "%.1f", milliseconds) : String(format: "%.3f", milliseconds)
    }
}

/// Wall-clock time of `body`, in milliseconds.
func measureMilliseconds(_ body: () throws -> Void) rethrows -> Double {
    let start = DispatchTime.now().uptimeNanoseconds
    try body()
    return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6
}

/// Wall-clock time of an async `body`, in milliseconds.
func measureMilliseconds(_ body: () async throws -> Void) async rethrows -> Double {
    let start = DispatchTime.now().uptimeNanoseconds
    try await body()
    return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6
}

/// `12.3×`: how many times `slow` is of `fast`.
func ratio(_ slow: Double, _ fast: Double, places: Int = 1) -> String {
    fast > 0 ? String(format: "%.\(places)f×", slow / fast) : "∞"
}
