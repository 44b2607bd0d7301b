import Foundation
import ParleyCore

extension EchoSubtraction {
    /// What the subtraction did over the blocks since the last report (`takeReport`).
    struct Report: CustomStringConvertible {
        let decibels: Double, blocks: Int, silenced: Int, promotions: Int, forgotten: Int, offset: Int?, replacements: Int
        let withoutMonitor: Int
        let directPath: EchoDirectPath.Found?

        var description: String {
            let direct = directPath.map {
                String(format: "%@ direct path %.0f samples late at %.2f (%.1f %% of the microphone; searched in %@)",
                       $0.taps == nil ? "no" : "a", $0.delay, $0.gain, 100 * $0.explained, "\($0.took)")
            } ?? "no direct path searched"
            return String(format: "%.1f dB less over %d blocks with playback (%d of them the echo alone), ",
                          decibels, blocks, silenced)
                + "\(promotions) renewals, \(forgotten) forgotten, monitor placed \(offset ?? 0) samples on (\(replacements) times again), "
                + "\(withoutMonitor) blocks without their monitor, \(direct)"
        }
    }
}

/// Microphone samples ready to be delivered, whether the echo subtraction explains them (the
/// echo alone, with no person in it), and the echo guard's verdict when they arrived.
struct DeliveredRun: Equatable {
    var samples: [Int16]
    var echoAlone: Bool
    var verdict: EchoVerdict

    /// Adds `run` to `runs`, joining it to the last run where both are alike.
    static func append(_ run: DeliveredRun, to runs: inout [DeliveredRun]) {
        guard !run.samples.isEmpty else { return }
        if let last = runs.last, last.echoAlone == run.echoAlone, last.verdict == run.verdict {
            runs[runs.count - 1].samples += run.samples
        } else {
            runs.append(run)
        }
    }
}
