@testable import Audio
import Foundation
import ParleyCore
import Testing
import TestSupport

/// The monitor as pipewire-pulse hands it over: its first pieces late and then caught up in a
/// burst, or every piece in bursts well behind the microphone. The echo is taken out as when
/// both arrive together (`echoAlone`'s room: 12 dB and more once 2 s have taught the path).
extension EchoCancellerTests {
    /// Three recordings played from 3 s on, their echo (the canceller suite's room) on the
    /// microphone; what `monitorArrives` delivers: the echo left after 2 s of playback, in dB
    /// under the echo, and the subtraction.
    static func reduction(monitorArrives: (Int) -> Double) throws -> (decibels: Double, subtraction: EchoSubtraction) {
        let lead = 3 * 16_000
        let played = try samples("goforward.raw") + samples("something.raw") + samples("goforward.raw")
        let monitor = [Double](repeating: 0, count: lead) + played
        let echo = echo(of: monitor, delay: 1_500, gain: 1)
        var subtraction = EchoSubtraction(searchesInPlace: true)
        let output = delivered(echo, monitor, monitorArrives: monitorArrives, subtraction: &subtraction).samples
        let from = lead + 2 * 16_000, to = min(output.count, echo.count)
        return (decibels(energy(echo[from..<to]) / energy(output[from..<to])), subtraction)
    }

    @Test("a monitor whose first pieces came 0.58 s late, then caught up in a burst, is placed again, and its echo taken out")
    func monitorCaughtUp() throws {
        // Until 2 s the monitor's pieces arrive 0.58 s late (as pipewire-pulse's did, measured
        // in the echo rooms of `simultaneousInEchoRooms`); at 2 s those left arrive at once.
        let (reduction, subtraction) = try Self.reduction { piece in
            let time = Double(piece) * 0.01
            return time + 0.58 < 2 ? time + 0.58 : max(time, 2)
        }
        print("echo subtraction, the monitor caught up: \(reduction) dB less echo, placed \(subtraction.replacements) times again")
        // 17.9 dB here. Placed once and for all by the late arrivals, the monitor sat 0.58 s off
        // the echo, out of the filters' reach: nothing was taken out (0.0 dB).
        #expect(subtraction.replacements == 1)
        #expect(reduction >= 12, "\(reduction) dB")
    }

    @Test("a monitor handed over in bursts of 0.4 s, behind the microphone, has its echo taken out")
    func monitorInBursts() throws {
        // Each piece waits for the end of its 0.4 s: up to 0.44 s behind the microphone's block
        // with the monitor read 40 ms ahead (measured behind it on pipewire-pulse: 0.15 to 0.46 s).
        let (reduction, subtraction) = try Self.reduction { piece in (Double(piece / 40 + 1) * 0.4) - 0.01 }
        print("echo subtraction, the monitor in bursts: \(reduction) dB less echo")
        // 21.2 dB here; 2.3 dB when a block waited 0.25 s at most: the blocks that went on
        // without their monitor taught the filters an echo of silence.
        #expect(subtraction.replacements == 0)
        #expect(reduction >= 12, "\(reduction) dB")
    }
}
