import ArgumentParser
import Foundation
import ProcessHarness

/// `parley-bench quiet`: `parley listen --file` over minutes of digital silence and of steady
/// noise, beside the same minutes of speech: wall time, how many utterances the detector
/// opened and how many reached Whisper, and the peak memory of parley and its worker.
struct QuietBenchmark: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "quiet",
        abstract: "Minutes of silence and steady noise through parley listen, beside the same minutes of speech.")

    @Option(help: "Minutes of each sound.")
    var minutes = 10

    func validate() throws {
        guard minutes >= 1 else { throw ValidationError("--minutes takes a whole number of at least 1") }
    }

    /// What one `parley listen --file` run measured.
    struct Run {
        var name: String
        var seconds = 0.0
        var decodes = 0
        var fullWindow = 0
        var steady = 0
        var lines = 0
        var workerPeak = 0
        var parleyPeak = 0
    }

    func run() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("parley-quiet-\(getpid())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let seconds = String(minutes * 60)
        var runs: [Run] = []
        for (name, effect) in [("digital silence", ["trim", "0", seconds]),
                               ("white noise (−20 dBFS)", ["synth", seconds, "whitenoise", "vol", "0.1"]),
                               ("pink noise (−20 dBFS)", ["synth", seconds, "pinknoise", "vol", "0.1"])] {
            let path = directory.appendingPathComponent("\(runs.count).wav").path
            let made = try ProcessRunner.run(["sox", "-n", "-r", "16000", "-c", "1", "-b", "16", path] + effect, timeout: 600)
            guard made.status == 0 else { throw BenchmarkFailure("sox failed: \(made.stderr)") }
            runs.append(try listen(path, name: name))
        }
        let speech = directory.appendingPathComponent("speech.wav").path
        try writeSpeech(to: speech)
        runs.append(try listen(speech, name: "speech: the recordings in turn, 1.5 s apart"))
        try report(runs)
    }

    /// The recordings of pocketsphinx-testdata one after another, each followed by 1.5 s of
    /// silence, repeated to `minutes` minutes.
    private func writeSpeech(to path: String) throws {
        let clips = try RecognitionCorpus.load().clips
        let silence = [Int16](repeating: 0, count: 24_000)
        var samples: [Int16] = []
        var index = 0
        while samples.count < minutes * 60 * 16_000 {
            samples += clips[index % clips.count].audio.samples + silence
            index += 1
        }
        try WhisperSoakBenchmark.wav(Array(samples.prefix(minutes * 60 * 16_000))).write(to: URL(fileURLWithPath: path))
    }

    /// `parley listen --file` over `path` (release build beside this one), memory read every 10 ms.
    private func listen(_ path: String, name: String) throws -> Run {
        let parley = DialogueProcess.builtParley
        let child = try ChildProcess([parley, "listen", "--recognizer", "whisper", "--locale", "en-US", "--file", path],
                                     environment: ProcessInfo.processInfo.environment.merging(["PARLEY_LOG": "debug"]) { $1 })
        var run = Run(name: name)
        let began = Date()
        var worker: Int32?
        while child.isRunning {
            if worker == nil { worker = MemoryStatus.child(of: child.pid, named: "whisper_worker") }
            if let worker, let status = MemoryStatus(pid: worker) { run.workerPeak = max(run.workerPeak, status.peak) }
            if let own = MemoryStatus(pid: child.pid) { run.parleyPeak = max(run.parleyPeak, own.peak) }
            guard Date().timeIntervalSince(began) < 3600 else {
                child.signal(SIGTERM)
                throw BenchmarkFailure("parley listen did not finish \(name) within an hour")
            }
            Thread.sleep(forTimeInterval: 0.01)
        }
        run.seconds = Date().timeIntervalSince(began)
        let status = child.wait()
        // No speech at all ends with "no speech was recognized" and status 1.
        guard status == 0 || child.stderr.contains("no speech was recognized") else {
            throw BenchmarkFailure("parley listen failed on \(name): \(child.stderr.suffix(2_000))")
        }
        let log = child.stderr.split(separator: "\n")
        run.decodes = log.filter { $0.hasSuffix("decoded") }.count
        run.fullWindow = log.filter { $0.hasSuffix("decoded") && $0.contains("window=full") }.count
        run.steady = log.filter { $0.hasSuffix("steady sound: no decode") }.count
        run.lines = child.stdout.split(separator: "\n").count
        progress("quiet", "\(name): \(String(format: "%.1f", run.seconds)) s, \(run.decodes) decodes")
        return run
    }

    private func report(_ runs: [Run]) throws {
        var report = BenchmarkReport(area: "quiet", title: "Silence and steady noise",
                                     command: "scripts/with-test-server.sh scripts/bench.sh quiet")
        report.add("One `parley listen --recognizer whisper --locale en-US --file` (release build) over \(minutes) minutes "
            + "of each sound (made by sox), and over the same minutes of speech: the recordings of pocketsphinx-testdata "
            + "in turn, 1.5 s apart. The voice activity detector opens utterances on steady sound too; an utterance "
            + "whose loudness hardly changes (`SteadySound`) is no speech and reaches no decode. Peak resident memory "
            + "(VmHWM) of parley and of its Whisper worker, read from /proc every 10 ms. Target: silence and noise take "
            + "at most the time of the same minutes of speech, and the two processes' peaks stay within 200 MB.")
        report.add("")
        let speech = runs.last?.seconds ?? 0
        report.addTable(header: ["sound", "wall time", "vs speech", "utterances without decode (steady)", "decodes",
                                 "of them in the full 30 s window", "lines printed", "peak: parley + worker"],
                        rows: runs.map { run in
            [run.name, String(format: "%.1f s", run.seconds), String(format: "%.2f×", run.seconds / max(speech, 0.001)),
             "\(run.steady)", "\(run.decodes)", "\(run.fullWindow)", "\(run.lines)",
             String(format: "%.1f + %.1f = %.1f MiB", Double(run.parleyPeak) / 1024, Double(run.workerPeak) / 1024,
                    Double(run.parleyPeak + run.workerPeak) / 1024)]
        })
        try report.write()
    }
}
