@testable import Audio
import Foundation
import Testing
import TestSupport

/// Parley's own echo canceller on recordings of pocketsphinx-testdata: a room made by
/// convolving what is played with an echo path (a delay and a decaying tail), a person
/// speaking over it as loud as the echo.
///
/// In the canceller suite, one after another: their arithmetic takes both cores for a moment,
/// which a canceller measuring a room beside them on pipewire-pulse did not survive.
extension EchoCancellerTests {
    /// 16 kHz samples of a recording, full scale 1.
    static func samples(_ name: String) throws -> [Double] {
        try Fixtures.rawSamples(Fixtures.recording(name)).map { Double($0) / 32_768 }
    }

    /// `signal` through an echo path: `delay` samples late, then a tail of reflections 20 dB
    /// down decaying over 80 ms, `gain` times as loud.
    static func echo(of signal: [Double], delay: Int, gain: Double) -> [Double] {
        var taps = [(Int, Double)]()
        taps.append((delay, gain))
        var seed: UInt64 = 7
        for offset in stride(from: 40, to: 1_280, by: 37) {
            seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            let sign = (seed >> 33) & 1 == 0 ? 1.0 : -1.0
            taps.append((delay + offset, sign * gain * 0.1 * exp(-Double(offset) / 400)))
        }
        var out = [Double](repeating: 0, count: signal.count)
        for (lag, weight) in taps {
            for index in lag..<signal.count { out[index] += weight * signal[index - lag] }
        }
        return out
    }

    /// Runs the subtractor over whole blocks of `microphone` and `reference`.
    static func subtract(_ microphone: [Double], _ reference: [Double], subtractor: EchoSubtractor = EchoSubtractor()) -> [Double] {
        let block = EchoSubtractor.blockSize
        var output = [Double](repeating: 0, count: microphone.count / block * block)
        for start in stride(from: 0, to: output.count, by: block) {
            microphone[start..<(start + block)].withUnsafeBufferPointer { mic in
                reference[start..<(start + block)].withUnsafeBufferPointer { ref in
                    output[start..<(start + block)].withUnsafeMutableBufferPointer { out in
                        subtractor.process(microphone: mic, reference: ref, output: out)
                    }
                }
            }
        }
        return output
    }

    static func energy(_ samples: ArraySlice<Double>) -> Double { samples.reduce(0) { $0 + $1 * $1 } }
    static func decibels(_ ratio: Double) -> Double { 10 * log10(ratio) }

    @Test("the echo of what was played is taken out of the microphone: 12 dB and more once the first 2 s have taught the path")
    func echoAlone() throws {
        let played = try Self.samples("goforward.raw") + Self.samples("something.raw") + Self.samples("goforward.raw")
        let echo = Self.echo(of: played, delay: 1_500, gain: 1)
        let output = Self.subtract(echo, played)
        let learned = 2 * 16_000
        let reduction = Self.decibels(Self.energy(echo[learned..<output.count]) / Self.energy(output[learned...]))
        // 15.5 dB here, the same on any CPU: the subtractor is arithmetic on the samples alone.
        print("echo subtractor: \(reduction) dB less echo after 2 s")
        #expect(reduction >= 12, "\(reduction) dB")
    }

    @Test("a person speaking over the playback, as loud as its echo, comes out 7 dB and more clearer of it; without a reference nothing is taken")
    func personOverThePlayback() throws {
        let played = try Self.samples("goforward.raw") + Self.samples("something.raw") + Self.samples("goforward.raw")
            + Self.samples("something.raw")
        let echo = Self.echo(of: played, delay: 1_500, gain: 1)
        let person = try Self.samples("numbers.raw")
        let start = 3 * 16_000
        var microphone = echo
        var alone = [Double](repeating: 0, count: echo.count)
        for index in 0..<min(person.count, echo.count - start) {
            microphone[start + index] += person[index]
            alone[start + index] = person[index]
        }
        let output = Self.subtract(microphone, played)
        let end = min(output.count, start + person.count)
        let before = Self.decibels(Self.energy(alone[start..<end]) / Self.energy(echo[start..<end]))
        let residue = zip(output[start..<end], alone[start..<end]).map { $0 - $1 }
        let after = Self.decibels(Self.energy(alone[start..<end]) / Self.energy(residue[...]))
        print("echo subtractor: the person \(before) dB over the echo before, \(after) dB over what is left of it after")
        // 10 dB clearer here.
        #expect(after - before >= 7, "before \(before) dB, after \(after) dB")

        let untouched = Self.subtract(alone, [Double](repeating: 0, count: alone.count))
        let change = zip(untouched, alone).map { $0 - $1 }
        #expect(Self.energy(change[...]) < 1e-12 * max(1, Self.energy(alone[...])), "no reference: the microphone as it is")
    }

    @Test("when the room changes, the new room is learned")
    func roomChanges() throws {
        let played = try Self.samples("goforward.raw") + Self.samples("something.raw") + Self.samples("goforward.raw")
            + Self.samples("something.raw") + Self.samples("goforward.raw")
        let half = played.count / 2
        let before = Self.echo(of: played, delay: 1_500, gain: 1), after = Self.echo(of: played, delay: 3_700, gain: 0.7)
        let microphone = Array(before[..<half] + after[half...])
        let output = Self.subtract(microphone, played)
        // Each half second after the change: how much more the output holds than the microphone.
        var added: [Double] = []
        for start in stride(from: half, to: output.count - 8_000, by: 8_000) {
            added.append(Self.decibels(Self.energy(output[start..<(start + 8_000)]) / Self.energy(microphone[start..<(start + 8_000)])))
        }
        let end = output.count
        let relearned = Self.decibels(Self.energy(microphone[(end - 32_000)..<end]) / Self.energy(output[(end - 32_000)..<end]))
        print("echo subtractor: after the room changed, each half second \(added) dB against the microphone; the last 2 s \(relearned) dB less echo")
        // 17 dB here; the old room's prediction adds to the first half seconds (4 dB at most
        // here) until the filters are forgotten or have learned the new room.
        #expect(relearned >= 10, "\(relearned) dB")
    }
}
