internal import CFFTW
import Dispatch
import Foundation
import ParleyCore
import Synchronization

/// The echo path's direct sound, found in the first moments of playback, for the
/// `EchoSubtractor` to start from.
///
/// An adaptive filter learns a room slowly while a person speaks over the playback: what it
/// is told to explain holds their voice as well as the echo, and it may only take small steps.
/// In simultaneous interpretation the person speaks all through the first translation, and
/// the first seconds of it reach the recognizer with their echo whole. Yet the loudest part
/// of a room's echo, the sound that comes straight from the speaker, shows in the correlation
/// of the microphone with what was played within a second, through the person's voice: their
/// speech does not correlate with the playback, the echo does.
///
/// So the first `seconds` of the microphone and the reference, from the first block with
/// something played, are kept; the peak of their cross-correlation over the filter's lags is
/// where the echo is strongest. The direct path is the least-squares filter of `halfWidth`
/// taps each side of it (a delay between samples, as a server that resamples what it plays
/// makes, spreads over neighbouring taps). Where it explains less than `leastExplained` of
/// what the microphone heard, there is no echo to speak of, or a person much louder than it,
/// and nothing is found.
struct EchoDirectPath {
    /// How much of the first playback is correlated.
    static let seconds = 0.75
    /// The least share of the microphone's energy (emphasized) the direct path must explain to
    /// be taken: an echo about 15 dB under the person (at 0 dB it explains about half). A
    /// person heard with no echo path is explained 0.002–0.015 by what plays (the recordings).
    static let leastExplained = 0.03
    /// Taps of the direct path on each side of the correlation's peak.
    static let halfWidth = 8

    /// The lags searched: the filter's length.
    let lags: Int
    private let wanted = Int(seconds * Double(AudioFormat.recognition.sampleRate))
    private var microphone: [Double] = [], reference: [Double] = []
    /// Whether the first playback has been kept whole (the search then runs, once).
    private(set) var collected = false
    /// Whether the first playback has begun to be kept.
    var started: Bool { collected || !reference.isEmpty }

    /// What a search found: the direct path's taps (`lags` of them), its strongest tap's delay
    /// in samples and gain, and the share of the microphone it explains; and how long the
    /// search took. No taps when nothing stands out.
    struct Found: Sendable {
        var taps: [Double]?
        var delay = 0.0, gain = 0.0, explained = 0.0
        var took: Duration = .zero
    }

    /// Searches lags `0..<lags` (the filter's length).
    init(lags: Int) { self.lags = lags }

    /// Keeps one block of each; once `seconds` of them are kept, returns them, for `search`.
    /// Nil before and after.
    mutating func add(microphone heard: UnsafeBufferPointer<Double>,
                      reference played: UnsafeBufferPointer<Double>) -> (microphone: [Double], reference: [Double])? {
        guard !collected else { return nil }
        if reference.isEmpty && !played.contains(where: { $0 != 0 }) { return nil }
        microphone += heard
        reference += played
        guard reference.count >= wanted else { return nil }
        collected = true
        defer { (microphone, reference) = ([], []) }
        return (microphone, reference)
    }

    /// The direct path in `microphone` of `reference`, over lags `0..<lags`.
    static func search(microphone: [Double], reference: [Double], lags: Int) -> Found {
        let clock = ContinuousClock(), began = clock.now
        var found = taps(microphone: microphone, reference: reference, lags: lags)
        found.took = clock.now - began
        return found
    }

    private static func taps(microphone: [Double], reference: [Double], lags: Int) -> Found {
        // Both emphasized alike (the path is the same between them): hum and an offset, which
        // two recordings may share at every lag, are gone, and speech's peak is sharper.
        let heard = emphasized(microphone), played = emphasized(reference)
        let correlation = crossCorrelation(heard, played, lags: lags)
        let heardEnergy = heard.reduce(0) { $0 + $1 * $1 }
        guard heardEnergy > 0, played.contains(where: { $0 != 0 }),
              let peak = correlation.indices.max(by: { abs(correlation[$0]) < abs(correlation[$1]) }) else { return Found() }
        // The least-squares filter of the taps around the peak: the reference's autocorrelation
        // as the normal equations' matrix, the cross-correlation as their right side.
        let first = max(0, peak - halfWidth), last = min(lags - 1, peak + halfWidth)
        let count = last - first + 1
        let autocorrelation = (0..<count).map { lag in
            (lag..<played.count).reduce(0.0) { $0 + played[$1] * played[$1 - lag] }
        }
        let ridge = 1e-3 * autocorrelation[0]
        let matrix = (0..<count).map { row in
            (0..<count).map { column in autocorrelation[abs(row - column)] + (row == column ? ridge : 0) }
        }
        guard let local = solve(matrix, Array(correlation[first...last])) else { return Found() }
        // The share of the microphone the direct path explains: w·r over what was heard.
        let explained = zip(local, correlation[first...last]).reduce(0) { $0 + $1.0 * $1.1 } / heardEnergy
        let strongest = local.indices.max { abs(local[$0]) < abs(local[$1]) } ?? 0
        var found = Found(delay: Double(first + strongest), gain: local[strongest], explained: explained)
        guard explained >= leastExplained else { return found }
        var taps = [Double](repeating: 0, count: lags)
        for (offset, tap) in local.enumerated() { taps[first + offset] = tap }
        found.taps = taps
        return found
    }

    /// `signal[n] − 0.9 · signal[n − 1]`: 20 dB less at 60 Hz, 11 dB more at 1 kHz.
    static func emphasized(_ signal: [Double]) -> [Double] {
        signal.indices.map { $0 == 0 ? signal[0] : signal[$0] - 0.9 * signal[$0 - 1] }
    }

    /// `matrix · x = right` by Gaussian elimination with partial pivoting; nil when singular.
    static func solve(_ matrix: [[Double]], _ right: [Double]) -> [Double]? {
        var a = matrix, b = right
        let n = b.count
        for column in 0..<n {
            guard let pivot = (column..<n).max(by: { abs(a[$0][column]) < abs(a[$1][column]) }),
                  abs(a[pivot][column]) > 1e-300 else { return nil }
            a.swapAt(column, pivot)
            b.swapAt(column, pivot)
            for row in (column + 1)..<n {
                let factor = a[row][column] / a[column][column]
                guard factor != 0 else { continue }
                for k in column..<n { a[row][k] -= factor * a[column][k] }
                b[row] -= factor * b[column]
            }
        }
        var x = [Double](repeating: 0, count: n)
        for row in stride(from: n - 1, through: 0, by: -1) {
            let known = ((row + 1)..<n).reduce(0.0) { $0 + a[row][$1] * x[$1] }
            x[row] = (b[row] - known) / a[row][row]
        }
        return x
    }

    /// `Σ microphone[n] · reference[n − lag]` for each lag in `0..<lags`, through FFTW.
    static func crossCorrelation(_ microphone: [Double], _ reference: [Double], lags: Int) -> [Double] {
        var size = 1
        while size < microphone.count + lags { size *= 2 }
        let bins = size / 2 + 1
        let time = fftw_alloc_real(size)!, first = fftw_alloc_complex(bins)!, second = fftw_alloc_complex(bins)!
        defer {
            fftw_free(time)
            fftw_free(first)
            fftw_free(second)
        }
        let (forwardMicrophone, forwardReference, inverse) = FourierPlanning.serialized {
            (fftw_plan_dft_r2c_1d(Int32(size), time, first, UInt32(FFTW_ESTIMATE)),
             fftw_plan_dft_r2c_1d(Int32(size), time, second, UInt32(FFTW_ESTIMATE)),
             fftw_plan_dft_c2r_1d(Int32(size), first, time, UInt32(FFTW_ESTIMATE)))
        }
        defer {
            FourierPlanning.serialized {
                for plan in [forwardMicrophone, forwardReference, inverse] { fftw_destroy_plan(plan) }
            }
        }
        for (signal, plan) in [(microphone, forwardMicrophone), (reference, forwardReference)] {
            time.update(repeating: 0, count: size)
            for index in signal.indices { time[index] = signal[index] }
            fftw_execute(plan)
        }
        // M · conj(R): the inverse is the correlation, `size` times too large.
        for bin in 0..<bins {
            let (mr, mi) = (first[bin].0, first[bin].1), (rr, ri) = (second[bin].0, second[bin].1)
            first[bin] = (mr * rr + mi * ri, mi * rr - mr * ri)
        }
        fftw_execute(inverse)
        return (0..<lags).map { time[$0] / Double(size) }
    }
}

/// The direct path's search, run beside the audio thread (it takes longer than a block): the
/// subtractor starts it once and takes its result, once, at a block after it is done.
final class DirectPathSearch: Sendable {
    private let result = Mutex<EchoDirectPath.Found?>(nil)

    /// Starts the search of `collected` over `lags` lags on a queue of its own.
    func start(_ collected: (microphone: [Double], reference: [Double]), lags: Int) {
        DispatchQueue.global(qos: .userInitiated).async { [self] in
            let found = EchoDirectPath.search(microphone: collected.microphone, reference: collected.reference, lags: lags)
            result.withLock { $0 = found }
        }
    }

    /// The search's result once it is done, the first time asked; nil otherwise.
    func take() -> EchoDirectPath.Found? {
        result.withLock { found in
            defer { found = nil }
            return found
        }
    }
}
