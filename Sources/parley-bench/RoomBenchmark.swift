import ArgumentParser
import Foundation
import ProcessHarness

/// `parley-bench room`: per-listener latency and memory of a three-party room, beside the
/// two-person dialogue on the same recording.
///
/// The room is `parley room` as a person runs it: en-US and fr-FR on the private server, each
/// on null sinks of their own, and es-ES on a second private server reached over TCP on
/// 127.0.0.1 with its cookie. The English party's recording is played into their microphone;
/// each listener's latency is read from the audio of their own speaker's monitor.
struct RoomBenchmark: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "room",
        abstract: "Per-listener latency and memory of a three-party room, beside the dialogue.")

    @Option(help: "Measured spoken utterances (one more warms up).")
    var turns = 12

    func validate() throws {
        guard turns >= 1 else { throw ValidationError("--turns must be at least 1") }
    }

    /// A listener's speaker, tapped.
    struct Listener {
        var name: String
        var tap: MonitorTap
        var latencies: [Double] = []
    }

    /// What one `parley room` measured: each listener's latencies (after one utterance that
    /// warms up), how often the speaking party's own speaker sounded, and the memory figures.
    struct RoomRun {
        var listeners: [Listener]
        var ownSound: Int
        var memory: MemoryStatus?
        var worker: MemoryStatus?
    }

    func run() async throws {
        guard ProcessInfo.processInfo.environment["PULSE_SERVER"] != nil else {
            throw ValidationError("run it with scripts/with-test-server.sh: it needs the private PulseAudio server")
        }
        let room = try await Self.measure(turns: turns)
        let (listeners, ownSound, memory, worker) = (room.listeners, Double(room.ownSound), room.memory, room.worker)

        // The dialogue on the same recording, Whisper as in the room: one listener.
        let devices = try await Devices.make()
        let dialogue: DialogueBenchmark.SpokenRun
        do {
            dialogue = try await DialogueBenchmark.parse(["--turns", String(turns)])
                .spokenTurns(turns, ending: .endpoint, echoCancel: true, devices: devices, recognizer: "whisper")
        } catch {
            await devices.close()
            throw error
        }
        await devices.close()

        var report = BenchmarkReport(area: "room", title: "Room: per-listener latency and memory",
                                     command: "scripts/with-test-server.sh scripts/bench.sh room")
        report.add("""
            Per-listener latency: the last sample of a LibriVox recording ("he might even have been made \
            amiable himself", 3.3 s) played into the English party's microphone → the first audible sample \
            (|s| > \(DialogueBenchmark.speechThreshold)) of its translation on each listener's speaker, read \
            from the audio of the sinks' monitors, stamped on one clock. `parley room en-US,… fr-FR,… es-ES,…` \
            runs as built (release): en-US and fr-FR on the private server, each on null sinks of their own; \
            es-ES on a second private PulseAudio server over TCP on 127.0.0.1, with its cookie. English reaches \
            French through Spanish (no Apertium pair joins them), Spanish directly. \(turns) utterances after \
            one that warms up. The dialogue: `parley dialog en-US es-ES --recognizer whisper` on the same \
            recording, one listener (es-ES), its own \(turns) turns.
            """)
        report.add("")
        var rows = listeners.map { listener in
            let timings = Timings(listener.latencies)
            return ["room, listener \(listener.name)", ms(timings.median), ms(timings.p90),
                    ratio(timings.median, dialogue.latencies.median)]
        }
        rows.append(["dialogue, listener es-ES (same server)", ms(dialogue.latencies.median), ms(dialogue.latencies.p90), "1.00×"])
        report.addTable(header: ["", "latency median", "p90", "against the dialogue"], rows: rows)
        report.add("The English party's own speaker sounded after \(Int(ownSound)) of \(turns + 1) utterances (it should hear nothing of its own words).")
        report.add("")
        report.add("All samples (ms): " + listeners.map { "\($0.name) \($0.latencies.map(Timings.format).joined(separator: ", "))" }
                   .joined(separator: "; ") + "; dialogue \(dialogue.latencies.samples.map(Timings.format).joined(separator: ", ")).")
        report.add("")
        report.addTable(header: ["memory after the utterances", "resident (VmRSS)", "peak (VmHWM)"], rows: [
            ["parley room, three parties (three audio sessions, two servers)", mib(memory?.resident), mib(memory?.peak)],
            ["its Whisper worker", mib(worker?.resident), mib(worker?.peak)],
            ["parley dialog, two sides (one session)", mib(dialogue.memory?.resident), mib(dialogue.memory?.peak)],
            ["its Whisper worker", mib(dialogue.workerMemory?.resident), mib(dialogue.workerMemory?.peak)],
        ])
        try report.write()
    }

    /// `turns` utterances (after one that warms up) of the English party through one three-party
    /// `parley room`: the one at `parley` when given, else the one built beside the benchmark.
    static func measure(turns: Int, parley: String? = nil) async throws -> RoomRun {
        let remote = try SecondServer()
        defer { remote.stop() }
        let sinks = try ["mic1", "spk1", "mic2", "spk2"].map { try NullSink.forBenchmark(label: "room_\($0)") }
        defer { sinks.forEach { $0.unload() } }
        let microphone = try await MonitorTap(source: sinks[0].monitor)
        var listeners = [Listener(name: "fr-FR (same server, through es)", tap: try await MonitorTap(source: sinks[3].monitor)),
                         Listener(name: "es-ES (second server over TCP)",
                                  tap: try await MonitorTap(source: "parley_speaker.monitor", server: remote.address, cookie: remote.cookie))]
        let own = try await MonitorTap(source: sinks[1].monitor)
        let run = try DialogueProcess(["room", "en-US,source=\(sinks[0].monitor),sink=\(sinks[1].name)",
                                       "fr-FR,source=\(sinks[2].monitor),sink=\(sinks[3].name)",
                                       "es-ES,source=parley_mic.monitor,sink=parley_speaker,server=\(remote.address),cookie=\(remote.cookie)",
                                       "--no-transcript", "--no-history"], terminal: .pipe, parley: parley)
        try run.waitFor("the room is open", moreThan: 0, timeout: 120)
        try await Task.sleep(for: .seconds(1))
        var ownSound = 0
        for turn in 0...turns {
            microphone.reset()
            listeners.forEach { $0.tap.reset() }
            own.reset()
            let answered = run.count("party 3: es-ES, ")
            try ProcessRunner.run(["paplay", "--device=\(sinks[0].name)", DialogueBenchmark.recording])
            try run.waitFor("→ 3 es-ES: ", moreThan: turn, timeout: 60)
            run.send(":parties", terminal: .pipe)  // answered once both translations have been spoken
            try run.waitFor("party 3: es-ES, ", moreThan: answered, timeout: 60)
            try await Task.sleep(for: .milliseconds(300))
            guard let end = microphone.lastSound(threshold: DialogueBenchmark.recordingThreshold) else {
                throw BenchmarkFailure("the recording was not heard on the English microphone")
            }
            var line: [String] = []
            for index in listeners.indices {
                guard let onset = listeners[index].tap.firstSound(after: end, threshold: DialogueBenchmark.speechThreshold) else {
                    throw BenchmarkFailure("\(listeners[index].name) heard nothing after the recording")
                }
                let latency = Double(onset - end) / 1e6
                if turn > 0 { listeners[index].latencies.append(latency) }
                line.append("\(listeners[index].name) \(Timings.format(latency)) ms")
            }
            if own.firstSound(after: end, threshold: DialogueBenchmark.speechThreshold) != nil { ownSound += 1 }
            progress("room", "utterance \(turn): " + line.joined(separator: ", "))
        }
        let memory = MemoryStatus(pid: run.pid)
        let worker = MemoryStatus.child(of: run.pid, named: "whisper_worker").flatMap { MemoryStatus(pid: $0) }
        run.finish()
        for tap in [microphone, own] + listeners.map(\.tap) { await tap.close() }
        return RoomRun(listeners: listeners, ownSound: ownSound, memory: memory, worker: worker)
    }

    private func ms(_ value: Double) -> String { "\(Timings.format(value)) ms" }
    private func ratio(_ value: Double, _ base: Double) -> String { String(format: "%.2f×", value / base) }
    private func mib(_ kib: Int?) -> String { kib.map { String(format: "%.1f MiB", Double($0) / 1024) } ?? "—" }
}

/// A second private PulseAudio server listening on 127.0.0.1 over TCP with a cookie, as a
/// party's server on another machine is; stopped with the benchmark.
final class SecondServer: Sendable {
    let directory: String
    let address: String
    let cookie: String

    init() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("parley-bench-room-\(getpid())").path
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("scripts/pulse-server.sh").path
        var environment = ProcessInfo.processInfo.environment
        environment["PARLEY_SERVER_TCP_PORT"] = String(Int.random(in: 49_152...65_000))
        environment["PULSE_SERVER"] = nil
        let output = try ProcessRunner.run(["/bin/bash", script, "start", directory], environment: environment)
        let lines = output.stdout.split(separator: "\n")
        guard output.status == 0, let server = lines.last, server.hasPrefix("PULSE_SERVER="),
              let cookie = lines.first(where: { $0.hasPrefix("PULSE_COOKIE=") }) else {
            throw BenchmarkFailure("the second server did not start: \(output.stderr)")
        }
        address = String(server.dropFirst("PULSE_SERVER=".count))
        self.cookie = String(cookie.dropFirst("PULSE_COOKIE=".count))
    }

    func stop() {
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("scripts/pulse-server.sh").path
        _ = try? ProcessRunner.run(["/bin/bash", script, "stop", directory])
        try? FileManager.default.removeItem(atPath: directory)
    }
}
