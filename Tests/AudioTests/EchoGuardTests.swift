@testable import Audio
import Foundation
import ParleyCore
import Testing

/// The echo guard on synthetic rooms: a syllable-like reference, its echo some frames late and
/// some dB down, and a "person" (another such signal) that starts at a known moment.
@Suite("Echo guard")
struct EchoGuardTests {
    /// A room: `echoLag` seconds late, `echoGain` in amplitude, a person `personGain` loud from
    /// `personStart` seconds (nil: nobody speaks), `seconds` of playback from second 1.
    struct Room {
        var echoLag = 0.08
        var echoGain = 0.5
        var personStart: Double?
        var personGain = 1.0
        var seconds = 6.0
        /// The machine stalled (server and Parley alike, as a virtual machine's host can stall
        /// them) from `at` for `seconds`: nothing is played or delivered meanwhile, the
        /// microphone's audio of the stall arrives at once when it ends, the machine's speech
        /// goes on from where it stopped, and its echo comes back `seconds` later than before
        /// (what was in flight when it stalled is still ahead of it, as in a loopback's buffer).
        var stall: (at: Double, seconds: Double)?
    }

    /// Syllables: 120 ms bursts of a tone whose loudness follows a fixed pseudo-random walk, with
    /// pauses, at `rate` Hz; `seed` makes the person different from the machine.
    static func syllables(seconds: Double, rate: Int, seed: UInt64, frequency: Double) -> [Int16] {
        var state = seed
        var samples: [Int16] = []
        let syllable = Int(0.12 * Double(rate))
        var amplitude = 0.3
        while samples.count < Int(seconds * Double(rate)) {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            let draw = Double(state >> 33) / Double(1 << 31)
            amplitude = draw < 0.15 ? 0 : 0.1 + 0.4 * draw
            for index in 0..<syllable {
                let t = Double(samples.count + index) / Double(rate)
                samples.append(Int16(amplitude * 32_767 * sin(2 * .pi * frequency * t)))
            }
        }
        return samples
    }

    /// Runs the room through a guard in 10 ms steps; the verdicts per 10 ms, from second 0.
    static func run(_ room: Room, compares: Bool = true) -> [(time: Double, verdict: EchoVerdict)] {
        var guardian = EchoGuard(compares: compares)
        let machine = syllables(seconds: room.seconds, rate: 22_050, seed: 7, frequency: 220)
        let heardMachine = syllables(seconds: room.seconds, rate: 16_000, seed: 7, frequency: 220)
        let person = syllables(seconds: room.seconds, rate: 16_000, seed: 99, frequency: 330)
        var verdicts: [(Double, EchoVerdict)] = []
        let start = 1.0
        let stalled = { (time: Double) in room.stall.map { time >= $0.at && time < $0.at + $0.seconds } ?? false }
        /// Where the machine's speech is at `time`: nil before it starts, during a stall and after it ends.
        func position(_ time: Double) -> Double? {
            guard time >= start, !stalled(time) else { return nil }
            let played = time - start - (room.stall.map { time >= $0.at + $0.seconds ? $0.seconds : 0 } ?? 0)
            return played < room.seconds ? played : nil
        }
        var held: [[Int16]] = []
        for step in 0..<Int((room.seconds + 2 + (room.stall?.seconds ?? 0)) * 100) {
            let time = Double(step) / 100
            if let offset = position(time).map({ Int($0 * 22_050) }) {
                let run = Array(machine[offset..<min(machine.count, offset + 220)])
                run.withUnsafeBufferPointer { guardian.played($0, rate: 22_050, at: time) }
            }
            var microphone = [Int16](repeating: 0, count: 160)
            for index in 0..<160 where !stalled(time) {
                let t = time + Double(index) / 16_000
                var value = 0.0
                let lag = room.echoLag + (room.stall.map { t >= $0.at + $0.seconds ? $0.seconds : 0 } ?? 0)
                if let echoAt = position(t - lag), case let sample = Int(echoAt * 16_000), sample < heardMachine.count {
                    value += room.echoGain * Double(heardMachine[sample])
                }
                if let personStart = room.personStart, t >= personStart, case let sample = Int((t - personStart) * 16_000),
                   sample < person.count {
                    value += room.personGain * Double(person[sample])
                }
                microphone[index] = Int16(max(-32_768, min(32_767, value)))
            }
            held.append(microphone)
            if stalled(time) { continue }
            for chunk in held {
                let verdict = chunk.withUnsafeBufferPointer { guardian.heard($0, at: time + 0.01) }
                verdicts.append((time, verdict))
            }
            held = []
        }
        return verdicts
    }

    @Test("the echo alone is never a person, at 0 and 12 dB down, 40 and 100 ms late",
          arguments: [(0.04, 1.0), (0.1, 1.0), (0.04, 0.25), (0.1, 0.25)])
    func echoAlone(_ lag: Double, _ gain: Double) {
        let verdicts = Self.run(Room(echoLag: lag, echoGain: gain))
        #expect(!verdicts.contains { $0.verdict == .person })
        #expect(verdicts.contains { $0.verdict == .echo }, "playback was noticed")
        #expect(verdicts.first?.verdict == .noPlayback && verdicts.last?.verdict == .noPlayback)
    }

    /// Echo as loud as the person (0 dB) is left out: the window then holds about twice the
    /// echo's energy, below the margin, and the guard waits for a pause in the machine's speech.
    @Test("a person over an echo 6 or 12 dB below them is declared within 250 ms of starting",
          arguments: [0.5, 0.25])
    func personOverEcho(_ echoGain: Double) throws {
        let verdicts = Self.run(Room(echoGain: echoGain, personStart: 3.0, personGain: 1.0))
        #expect(!verdicts.contains { $0.time < 3.0 && $0.verdict == .person }, "nobody before the person")
        let declared = try #require(verdicts.first { $0.verdict == .person }, "the person was declared")
        #expect(declared.time - 3.0 < 0.25, "declared \(declared.time - 3.0) s after the person began")
    }

    @Test("until it has learned the room the guard declares nobody")
    func learnsFirst() {
        let verdicts = Self.run(Room(personStart: 1.2, personGain: 1.0))
        #expect(!verdicts.contains { $0.time < 1.5 && $0.verdict == .person })
    }

    @Test("without comparing (the control), any sound during playback is a person")
    func controlHearsTheEcho() {
        let verdicts = Self.run(Room(echoGain: 1.0), compares: false)
        #expect(verdicts.contains { $0.verdict == .person })
    }

    @Test("a microphone the speaker never reaches: anyone who speaks during playback is a person")
    func silentRoom() throws {
        let verdicts = Self.run(Room(echoGain: 0, personStart: 3.0))
        let declared = try #require(verdicts.first { $0.verdict == .person })
        #expect(declared.time >= 3.0 && declared.time - 3.0 < 0.2)
    }

    @Test("a stall of the whole machine shifts the echo against what was played: the guard declares nobody, and a person after it is declared",
          arguments: [0.15, 0.3, 0.5])
    func stall(_ seconds: Double) throws {
        let quiet = Self.run(Room(echoGain: 1.0, seconds: 8, stall: (at: 3.0, seconds: seconds)))
        #expect(!quiet.contains { $0.verdict == .person }, "the shifted echo was taken for a person")
        let spoken = Self.run(Room(echoGain: 0.5, personStart: 6.0, seconds: 8, stall: (at: 3.0, seconds: seconds)))
        #expect(!spoken.contains { $0.time < 6.0 && $0.verdict == .person }, "nobody before the person")
        let declared = try #require(spoken.first { $0.verdict == .person }, "the person was declared")
        #expect(declared.time - 6.0 < 0.25, "declared \(declared.time - 6.0) s after the person began")
    }
}

@Suite("Echo guard after a held playback")
struct EchoGuardResumeTests {
    /// 3.5 s of playback and its echo (80 ms late, 6 dB down), and a person as loud as the
    /// playback from 3.8 s; `resumedAt`: the playback was held and played on then.
    static func verdicts(resumedAt: Double?) -> [(time: Double, verdict: EchoVerdict)] {
        var guardian = EchoGuard()
        let machine = EchoGuardTests.syllables(seconds: 5, rate: 22_050, seed: 7, frequency: 220)
        let heardMachine = EchoGuardTests.syllables(seconds: 5, rate: 16_000, seed: 7, frequency: 220)
        let person = EchoGuardTests.syllables(seconds: 5, rate: 16_000, seed: 99, frequency: 330)
        var verdicts: [(Double, EchoVerdict)] = []
        for step in 100..<450 {
            let time = Double(step) / 100
            let offset = Int((time - 1) * 22_050)
            let run = Array(machine[offset..<offset + 220])
            run.withUnsafeBufferPointer { guardian.played($0, rate: 22_050, at: time) }
            if let resumedAt, step == Int(resumedAt * 100) { guardian.playbackResumed() }
            var microphone = [Int16](repeating: 0, count: 160)
            for index in 0..<160 {
                let t = time + Double(index) / 16_000
                var value = 0.0
                if t - 0.08 >= 1 { value += 0.5 * Double(heardMachine[Int((t - 1.08) * 16_000)]) }
                if t >= 3.8 { value += Double(person[Int((t - 3.8) * 16_000)]) }
                microphone[index] = Int16(max(-32_768, min(32_767, value)))
            }
            verdicts.append((time, microphone.withUnsafeBufferPointer { guardian.heard($0, at: time + 0.01) }))
        }
        return verdicts
    }

    @Test("played on after a hold, the guard forgets the room and learns it again: a person after that is declared as soon as without the hold")
    func learnsAgain() throws {
        for resumedAt in [2.8, nil] {
            let verdicts = Self.verdicts(resumedAt: resumedAt)
            #expect(!verdicts.contains { $0.time < 3.8 && $0.verdict == .person }, "the echo was taken for a person")
            let declared = try #require(verdicts.first { $0.verdict == .person }, "the person was declared")
            #expect(declared.time - 3.8 < 0.25, "declared \(declared.time - 3.8) s after the person began")
        }
    }
}
