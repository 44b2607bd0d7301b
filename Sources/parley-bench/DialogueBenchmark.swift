import ArgumentParser
import Foundation

/// `parley-bench dialogue`: turn latency of `parley dialog` through the real server,
/// with automatic endpointing and with the end-of-turn key, each with Parley's defaults
/// (the echo canceller on) and with `--echo-cancel off`, against the naive command-line
/// pipeline; and its resident memory over many turns.
///
/// The built `parley` runs as a user would run it, on two null sinks of its own
/// (microphone and speaker); the benchmark plays a LibriVox recording into the
/// microphone and listens to both monitors, so every latency is read from the audio.
struct DialogueBenchmark: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "dialogue",
        abstract: "Turn latency and memory of the dialogue against the naive pipeline.")

    @Option(help: "Measured spoken turns per mode (one more warms up).")
    var turns = 12

    @Option(name: .customLong("endpoint-ms"), help: "The endpoint window of parley and pocketsphinx_continuous.")
    var endpointMilliseconds = 500

    @Option(name: .customLong("memory-turns"), help: "Typed turns of the memory run.")
    var memoryTurns = 500

    @Option(name: .customLong("memory-interval"), help: "Turns between two memory samples.")
    var memoryInterval = 50

    /// "he might even have been made amiable himself", 3.3 s.
    static let recording = "/usr/share/pocketsphinx/test/data/librivox/sense_and_sensibility_01_austen_64kb-0930.wav"

    func validate() throws {
        guard turns >= 1 else { throw ValidationError("--turns must be at least 1") }
        guard memoryInterval >= 1 else { throw ValidationError("--memory-interval must be at least 1") }
        guard memoryTurns >= memoryInterval else { throw ValidationError("--memory-turns must be at least --memory-interval") }
        guard endpointMilliseconds >= 1 else { throw ValidationError("--endpoint-ms must be at least 1") }
    }

    func run() async throws {
        guard ProcessInfo.processInfo.environment["PULSE_SERVER"] != nil else {
            throw ValidationError("run it with scripts/with-test-server.sh: it needs the private PulseAudio server")
        }
        let devices = try await Devices.make()
        do {
            let automatic = try await spokenPair(ending: .endpoint, devices: devices)
            let key = try await spokenPair(ending: .key, devices: devices)
            let whisper = try await spokenPair(ending: .endpoint, devices: devices, recognizer: "whisper")
            let naive = try await naiveTurns(devices: devices)
            let memory = try typedTurnsMemory(devices: devices)
            let naiveMemory = try naiveMemory(devices: devices)
            var report = BenchmarkReport(area: "dialogue", title: "Dialogue: turn latency and memory",
                                         command: "scripts/with-test-server.sh scripts/bench.sh dialogue")
            addLatency(to: &report, automatic: automatic, key: key, whisper: whisper, naive: naive.latencies,
                       naiveSilent: naive.silent)
            addMemory(to: &report, spoken: automatic.both + key.both, whisper: whisper.defaults, typed: memory,
                      naive: naiveMemory)
            try report.write()
        } catch {
            await devices.close()
            throw error
        }
        await devices.close()
    }
}
