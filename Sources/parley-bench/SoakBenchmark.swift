import ArgumentParser
import Foundation
import ProcessHarness

/// `parley-bench soak`: one `parley dialog` through hundreds of spoken turns, each
/// recognized, translated and spoken, with its resident memory read from turn 0.
///
/// A recording is played into the microphone's null sink for every turn of side A;
/// parley recognizes it (PocketSphinx), translates it with Apertium and speaks the
/// Spanish to the speaker's null sink. `:swap` gives the turn back to A. The
/// transcript is read at the end to check that every turn was heard and translated.
struct SoakBenchmark: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "soak",
        abstract: "Resident memory of one dialogue over hundreds of spoken turns.")

    @Option(help: "Spoken turns.")
    var turns = 200

    @Option(help: "Turns between two memory samples.")
    var interval = 50

    @Option(name: .customLong("bound-mib"), help: "Largest growth of resident memory allowed from turn 0 to the last turn.")
    var boundMiB = 16.0

    func validate() throws {
        guard turns >= 1 else { throw ValidationError("--turns must be at least 1") }
        guard interval >= 1 else { throw ValidationError("--interval must be at least 1") }
    }

    func run() async throws {
        guard ProcessInfo.processInfo.environment["PULSE_SERVER"] != nil else {
            throw ValidationError("run it with scripts/with-test-server.sh: it needs the private PulseAudio server")
        }
        let (microphone, speaker) = (try NullSink.forBenchmark(label: "soak-mic"), try NullSink.forBenchmark(label: "soak-speaker"))
        defer {
            microphone.unload()
            speaker.unload()
        }
        let result = try soak(microphone: microphone, speaker: speaker)
        var report = BenchmarkReport(area: "soak", title: "Soak: spoken turns and resident memory",
                                     command: "scripts/with-test-server.sh scripts/bench.sh soak")
        addReport(result, to: &report)
        try report.write()
    }

    /// What the soak measured.
    struct SoakRun {
        /// (turns done, VmRSS in KiB), from turn 0.
        var samples: [(turns: Int, resident: Int)]
        /// VmHWM at the end, KiB.
        var peak: Int
        /// Wall-clock seconds of the spoken turns (from the first recording to the last translation spoken).
        var seconds: Double
        /// Turns the transcript records as heard with a non-empty translation.
        var translatedTurns: Int
        /// Plays of the recording heard as nothing (counted apart; the recording was played again).
        var unheardPlays: Int
    }

    private func soak(microphone: NullSink, speaker: NullSink) throws -> SoakRun {
        let transcript = FileManager.default.temporaryDirectory.appendingPathComponent("soak-\(getpid()).jsonl").path
        defer { try? FileManager.default.removeItem(atPath: transcript) }
        let run = try DialogueProcess(["dialog", "en-US", "es-ES", "--recognizer", "pocketsphinx", "--transcript", transcript,
                                       "--no-history", "--source", microphone.monitor, "--sink", speaker.name],
                                      terminal: .pipe)
        try run.waitFor("A (en-US), your turn", moreThan: 0)
        Thread.sleep(forTimeInterval: 1)  // the model and pipelines are loaded before turn 0 is read
        var samples: [(turns: Int, resident: Int)] = []
        guard let start = MemoryStatus(pid: run.pid) else { throw BenchmarkFailure("parley exited") }
        samples.append((0, start.resident))
        let began = Date()
        var unheard = 0
        for turn in 1...turns {
            unheard += try spokenTurn(run, into: microphone)
            if turn % interval == 0 || turn == turns {
                guard let status = MemoryStatus(pid: run.pid) else { throw BenchmarkFailure("parley exited") }
                samples.append((turn, status.resident))
                progress("soak", "\(turn) turns, VmRSS \(status.resident) KiB")
            }
        }
        let seconds = Date().timeIntervalSince(began)
        let peak = MemoryStatus(pid: run.pid)?.peak ?? 0
        run.finish()
        return SoakRun(samples: samples, peak: peak, seconds: seconds, translatedTurns: try translatedTurns(in: transcript),
                       unheardPlays: unheard)
    }

    /// Plays the recording as A until a turn is heard, translated and spoken (B's prompt is
    /// printed once the speaker has drained), then gives the turn back to A. Returns the
    /// plays that were heard as nothing (A keeps the turn and listens again).
    private func spokenTurn(_ run: DialogueProcess, into microphone: NullSink) throws -> Int {
        let unheard = "no speech was recognized"
        for misses in 0..<5 {
            let (turnsOfB, missed) = (run.count("B (es-ES), your turn"), run.count(unheard))
            try ProcessRunner.run(["paplay", "--device=\(microphone.name)", DialogueBenchmark.recording])
            let deadline = Date().addingTimeInterval(120)
            while run.count("B (es-ES), your turn") == turnsOfB && run.count(unheard) == missed {
                guard Date() < deadline else { throw BenchmarkFailure("no turn ended within 120 s of the recording") }
                Thread.sleep(forTimeInterval: 0.01)
            }
            guard run.count("B (es-ES), your turn") > turnsOfB else { continue }
            let turnsOfA = run.count("A (en-US), your turn")
            run.send(":swap", terminal: .pipe)
            try run.waitFor("A (en-US), your turn", moreThan: turnsOfA)
            return misses
        }
        throw BenchmarkFailure("five plays of the recording in a row were heard as nothing")
    }

    /// Spoken turns of A in the transcript with recognized text and a translation.
    private func translatedTurns(in transcript: String) throws -> Int {
        let text = try String(contentsOfFile: transcript, encoding: .utf8)
        return text.split(separator: "\n").filter { line in
            guard let entry = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] else { return false }
            return entry["input"] as? String == "speech" && !((entry["text"] as? String) ?? "").isEmpty
                && !((entry["translation"] as? String) ?? "").isEmpty
        }.count
    }

    private func addReport(_ run: SoakRun, to report: inout BenchmarkReport) {
        let first = run.samples.first?.resident ?? 0
        let settled = run.samples.first { $0.turns == interval }?.resident ?? first
        let last = run.samples.last?.resident ?? 0
        let growth = Double(last - first) / 1024
        let held = growth <= boundMiB
        report.add("""
            One `parley dialog en-US es-ES --recognizer pocketsphinx` (release build) through \(turns) spoken turns: \
            for each, a LibriVox recording (\"he might even have been made amiable himself\", 3.3 s) is played into \
            the microphone's null sink, parley recognizes it, translates it with Apertium and speaks the Spanish \
            to the speaker's null sink; `:swap` then gives the turn back to A. A transcript file is written. \
            Resident memory (VmRSS) is read from /proc at turn 0 (models loaded, no turn yet) and every \
            \(interval) turns. A play heard as nothing (on a loaded machine the capture consumer can fall \
            behind and drop audio) is played again and counted apart. The machine was shared with other builds and test runs while this ran, so \
            turns per minute is a floor, not a figure of Parley alone.
            """)
        report.add("")
        report.addTable(header: ["turns"] + run.samples.map { String($0.turns) },
                        rows: [["VmRSS (MiB)"] + run.samples.map { mib($0.resident) }])
        report.addTable(header: ["measure", "value"], rows: [
            ["turns heard and translated (transcript)", "\(run.translatedTurns) of \(turns)"],
            ["plays of the recording heard as nothing (played again; not turns)", "\(run.unheardPlays)"],
            ["turns per minute", String(format: "%.1f", Double(turns) / run.seconds * 60)],
            ["growth from turn 0 to turn \(turns) (VmRSS)", String(format: "%+.1f MiB", growth)],
            ["growth from turn \(interval) to turn \(turns) (VmRSS)", String(format: "%+.1f MiB", Double(last - settled) / 1024)],
            ["peak resident (VmHWM)", "\(mib(run.peak)) MiB"],
            ["bound: growth from turn 0 to turn \(turns) ≤ \(String(format: "%.0f", boundMiB)) MiB", held ? "held" : "EXCEEDED"],
        ])
    }

    private func mib(_ kib: Int) -> String { String(format: "%.1f", Double(kib) / 1024) }
}
