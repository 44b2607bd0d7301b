import Audio
import ChildProcesses
import Foundation
import ProcessHarness

/// Turn latency: the end of the recording played into the microphone → the first
/// audible sample of the translation on the speaker, both read from the audio.
extension DialogueBenchmark {
    /// How a spoken turn ends.
    enum TurnEnd { case endpoint, key }

    /// What the turns of one `parley dialog` run measured.
    struct SpokenRun {
        var latencies: Timings
        var memory: MemoryStatus?
        /// The Whisper worker's, when the run recognized with Whisper.
        var workerMemory: MemoryStatus?

        init(latencies: Timings, memory: MemoryStatus?, workerMemory: MemoryStatus?) {
            (self.latencies, self.memory, self.workerMemory) = (latencies, memory, workerMemory)
        }

        /// Several runs of one mode and setting as one: every latency, in the order taken, and
        /// the memory figures of the process (and worker) whose peak was highest.
        init(joining runs: [SpokenRun]) {
            latencies = Timings(runs.flatMap(\.latencies.samples))
            memory = runs.compactMap(\.memory).max { $0.peak < $1.peak }
            workerMemory = runs.compactMap(\.workerMemory).max { $0.peak < $1.peak }
        }
    }

    /// One mode measured with Parley's defaults (the echo canceller, which `auto` loads on a
    /// shared microphone, and barge-in with it) and with `--echo-cancel off`.
    struct SpokenPair {
        var defaults: SpokenRun
        var echoOff: SpokenRun
        var both: [SpokenRun] { [defaults, echoOff] }
    }

    /// Silence on the microphone's null sink is exactly zero; anything else is the recording.
    static let recordingThreshold: Int16 = 0
    /// The first speech sample of the translation (out of 32767).
    static let speechThreshold: Int16 = 200

    /// One mode with the defaults and with `--echo-cancel off`, each in two processes of half the
    /// turns, in the order defaults, off, off, defaults: a load of the shared machine that rises
    /// or falls over the pair weighs on both settings alike.
    func spokenPair(ending: TurnEnd, devices: Devices, recognizer: String = "pocketsphinx") async throws -> SpokenPair {
        let (first, second) = ((turns + 1) / 2, turns / 2)
        var defaults = [try await spokenTurns(first, ending: ending, echoCancel: true, devices: devices, recognizer: recognizer)]
        var echoOff = [try await spokenTurns(first, ending: ending, echoCancel: false, devices: devices, recognizer: recognizer)]
        if second > 0 {
            echoOff.append(try await spokenTurns(second, ending: ending, echoCancel: false, devices: devices, recognizer: recognizer))
            defaults.append(try await spokenTurns(second, ending: ending, echoCancel: true, devices: devices, recognizer: recognizer))
        }
        return SpokenPair(defaults: SpokenRun(joining: defaults), echoOff: SpokenRun(joining: echoOff))
    }

    /// `count` spoken turns (after one that warms up) through one `parley dialog`: with its
    /// defaults when `echoCancel` (the canceller checked loaded), else with `--echo-cancel off`;
    /// the `parley` at `parley` when given, else the one built beside the benchmark; `options` added.
    /// Through the canceller Parley records its source and plays into its sink, set between the
    /// two null sinks; the taps stay on the null sinks' monitors, the microphone and speaker.
    func spokenTurns(_ count: Int, ending: TurnEnd, echoCancel: Bool, devices: Devices,
                     recognizer: String, parley: String? = nil, options: [String] = []) async throws -> SpokenRun {
        let terminal: ChildProcess.Terminal = ending == .key ? .pseudoTerminal : .pipe
        let run = try DialogueProcess(["dialog", "en-US", "es-ES", "--no-transcript", "--no-history", "--recognizer", recognizer,
                                       "--endpoint-ms", String(endpointMilliseconds),
                                       "--source", devices.microphone.monitor, "--sink", devices.speaker.name]
                                          + (echoCancel ? [] : ["--echo-cancel", "off"]) + options,
                                      terminal: terminal, parley: parley)
        defer { run.finish() }
        try run.waitFor("A (en-US), your turn", moreThan: 0)
        guard try Self.hasCanceller(of: run.pid) == echoCancel else {
            throw BenchmarkFailure("parley dialog \(echoCancel ? "with its defaults loaded no" : "with --echo-cancel off loaded an") echo canceller")
        }
        let setting = echoCancel ? "defaults" : "--echo-cancel off"
        try await Task.sleep(for: .seconds(1))  // the models and pipelines are loaded before the first turn
        var latencies: [Double] = []
        for turn in 0...count {
            let latency = try await spokenTurn(run, ending: ending, terminal: terminal, devices: devices)
            if turn > 0 { latencies.append(latency) }
            progress("dialogue", "parley (\(recognizer), \(setting)), \(ending): turn \(turn), \(Timings.format(latency)) ms")
            let turnsOfA = run.count("A (en-US), your turn")
            run.send(":swap", terminal: terminal)
            try run.waitFor("A (en-US), your turn", moreThan: turnsOfA)
            try await Task.sleep(for: .milliseconds(300))
        }
        let worker = MemoryStatus.child(of: run.pid, named: "whisper_worker").flatMap { MemoryStatus(pid: $0) }
        return SpokenRun(latencies: Timings(latencies), memory: MemoryStatus(pid: run.pid), workerMemory: worker)
    }

    /// Whether the server has a source of an echo canceller that process `pid` loaded
    /// (`parley_ec.HOST.PID.…`, see `EchoCanceller`).
    private static func hasCanceller(of pid: Int32) throws -> Bool {
        let sources = try ProcessRunner.run(["pactl", "list", "short", "sources"]).stdout
        return sources.split(separator: "\n").contains { line in
            line.split(separator: "\t").dropFirst().first.map { name in
                name.hasPrefix("\(EchoCanceller.prefix).") && name.split(separator: ".").contains("\(pid)")
            } ?? false
        }
    }

    /// Plays the recording, ends the turn as `ending` says, waits until the translation was spoken.
    private func spokenTurn(_ run: DialogueProcess, ending: TurnEnd, terminal: ChildProcess.Terminal,
                            devices: Devices) async throws -> Double {
        devices.resetTaps()
        let turnsOfB = run.count("B (es-ES), your turn")
        try play(into: devices.microphone)
        if ending == .key { run.send("", terminal: terminal) }
        try run.waitFor("B (es-ES), your turn", moreThan: turnsOfB)  // printed when the speaker has drained
        try await Task.sleep(for: .milliseconds(200))
        return try devices.latency()
    }

    /// The naive pipeline, one process per recognized line:
    /// `pocketsphinx_continuous -inmic yes | while read line; do apertium | espeak-ng --stdout | paplay; done`,
    /// started afresh for every turn (its model load is not timed), so a decoder that fell behind
    /// real time on a busy machine does not carry its backlog into the next turn.
    /// Returns the latencies and the number of turns in which nothing was spoken within 30 s.
    func naiveTurns(devices: Devices) async throws -> (latencies: Timings, silent: Int) {
        var latencies: [Double] = [], silent = 0
        for turn in 0...turns {
            let pipeline = try startNaivePipeline(devices)
            defer { pipeline.tearDown(.killGroup) }
            try await Task.sleep(for: .seconds(3))  // the decoder loads its model and opens the microphone
            devices.resetTaps()
            try play(into: devices.microphone)
            guard try await waitUntilSpoken(devices) else {
                silent += turn > 0 ? 1 : 0
                progress("dialogue", "naive: turn \(turn), nothing spoken within 30 s")
                continue
            }
            let latency = try devices.latency()
            if turn > 0 { latencies.append(latency) }
            progress("dialogue", "naive: turn \(turn), \(Timings.format(latency)) ms")
        }
        guard !latencies.isEmpty else { throw BenchmarkFailure("the naive pipeline spoke in no turn") }
        return (Timings(latencies), silent)
    }

    /// Starts the naive pipeline in a process group of its own, which `tearDown(.killGroup)` stops as one.
    private func startNaivePipeline(_ devices: Devices) throws -> SpawnedProcess {
        let script = """
            exec pocketsphinx_continuous -inmic yes -adcdev "$1" -logfn /dev/null | \
            while IFS= read -r line; do
              printf '%s\\n' "$line" | apertium -u eng-spa | espeak-ng -v es --stdout | paplay --device="$2"
            done
            """
        return try SpawnedProcess(["/bin/sh", "-c", script, "sh", devices.microphone.monitor, devices.speaker.name],
                                  name: "the naive pipeline", standardInput: .discarded, standardOutput: .discarded,
                                  standardError: .discarded)
    }

    /// Waits until the speaker has sounded after the recording and then been quiet for a second.
    private func waitUntilSpoken(_ devices: Devices) async throws -> Bool {
        let deadline = Date().addingTimeInterval(30)
        while Date() < deadline {
            try await Task.sleep(for: .milliseconds(100))
            if (try? devices.latency()) != nil, devices.speakerTap.isQuiet(forLast: 1, threshold: Self.speechThreshold) {
                return true
            }
        }
        return false
    }

    /// Plays the recording into `sink` with paplay, returning when it has played.
    func play(into sink: NullSink) throws {
        try ProcessRunner.run(["paplay", "--device=\(sink.name)", Self.recording])
    }
}

/// The two null sinks of the latency runs, with a tap on each monitor.
struct Devices {
    let microphone: NullSink
    let speaker: NullSink
    let microphoneTap: MonitorTap
    let speakerTap: MonitorTap

    /// Loads both sinks and starts both taps.
    static func make() async throws -> Devices {
        let (microphone, speaker) = (try NullSink.forBenchmark(label: "mic"), try NullSink.forBenchmark(label: "speaker"))
        return Devices(microphone: microphone, speaker: speaker,
                       microphoneTap: try await MonitorTap(source: microphone.monitor),
                       speakerTap: try await MonitorTap(source: speaker.monitor))
    }

    /// Forgets what both taps heard.
    func resetTaps() {
        microphoneTap.reset()
        speakerTap.reset()
    }

    /// Milliseconds from the last sample of the recording to the first audible sample after it.
    func latency() throws -> Double {
        guard let end = microphoneTap.lastSound(threshold: DialogueBenchmark.recordingThreshold) else {
            throw BenchmarkFailure("the recording was not heard on the microphone")
        }
        guard let onset = speakerTap.firstSound(after: end, threshold: DialogueBenchmark.speechThreshold) else {
            throw BenchmarkFailure("nothing was heard on the speaker after the recording")
        }
        return Double(onset - end) / 1e6
    }

    /// Closes the taps and unloads the sinks.
    func close() async {
        await microphoneTap.close()
        await speakerTap.close()
        microphone.unload()
        speaker.unload()
    }
}
