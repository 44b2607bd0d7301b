import ArgumentParser
import Foundation
import ParleyCore
import PocketSphinxRecognition
import ProcessHarness
import WhisperRecognition

/// `parley-bench whisper-long`: continuous speech of 18 to 45 s (no pause long enough to
/// end an utterance) through Parley's Whisper path as `parley listen --file` runs it, beside
/// stock faster-whisper `transcribe` on the same files in the same run: word error rate and
/// time per passage.
struct WhisperLongBenchmark: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "whisper-long",
        abstract: "Whisper on long continuous speech: Parley's file path vs stock faster-whisper transcribe.")

    @Option(help: "Passes over the passages, of Parley's path and of stock transcribe (each loaded once for all).")
    var repetitions = 3

    func run() async throws {
        let setup = try WhisperBenchSetup.discover()
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("parley-whisper-long-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let passages = LongSpeechPassages.all
        let files = try passages.map { try LongSpeechPassages.build($0, in: directory) }
        progress("whisper-long", "stock transcribe, \(repetitions) passes")
        let stock = try stockRuns(files, setup: setup, directory: directory)
        progress("whisper-long", "Parley, \(repetitions) passes")
        let parley = try await parleyRuns(files, setup: setup)
        var report = BenchmarkReport(area: "whisper-long", title: "Whisper on long continuous speech",
                                     command: "scripts/with-test-server.sh scripts/bench.sh whisper-long")
        report.add("Passages built from the recordings of pocketsphinx-testdata (`LongSpeechPassages`: each clip's silent "
            + "edges trimmed, 0.25 s pauses between clips, so each passage is one utterance to a 500 ms endpoint); "
            + "model `\(setup.installation.models[0].name)` (int8, 2 threads). Stock: `WhisperModel.transcribe`, "
            + "language given, beam 1, no timestamps, no conditioning on previous text "
            + "(benchmarks/stock_whisper.py), successive 30 s windows. Parley: `transcribeFile` with the tuning "
            + "`parley listen --file` uses (speculative decodes, word times, one alternative), the worker started "
            + "before; past 27 s it decodes window after window, each cut at the quietest 100 ms of its last 5 s. "
            + "WER over words in lower case without punctuation, numbers up to twelve spelled; texts and WER are the "
            + "first pass's, times the median of \(repetitions) passes.")
        report.add("")
        var rows: [[String]] = [], heard: [[String]] = []
        for (index, passage) in passages.enumerated() {
            let words = passage.reference.split(separator: " ").count
            let stockText = stock.texts[index], parleyText = parley.texts[index]
            let stockTime = Timings(stock.seconds[index].map { $0 * 1000 }).median
            let parleyTime = Timings(parley.milliseconds[index]).median
            rows.append([passage.name, "\(words)", wer(stockText, passage.reference), Timings.format(stockTime),
                         wer(parleyText, passage.reference), Timings.format(parleyTime),
                         String(format: "%.2f×", stockTime / max(parleyTime, 0.001))])
            heard.append([passage.name, stockText, parleyText])
        }
        report.addTable(header: ["passage", "words", "stock WER", "stock ms", "Parley WER", "Parley ms", "Parley faster by"],
                        rows: rows)
        report.add("Target: Parley's WER at most stock's + 1 point, in no more than stock's time.")
        report.add("")
        report.add("### What each heard")
        report.add("")
        report.addTable(header: ["passage", "stock transcribe", "Parley"], rows: heard)
        try report.write()
    }

    /// `errors / words (percent)` of `text` against `reference`, as spoken words.
    private func wer(_ text: String, _ reference: String) -> String {
        let errors = RecognitionCorpus.wordErrors(RecognitionCorpus.spokenWords(text), reference)
        let words = reference.split(separator: " ").count
        return String(format: "%.1f %% (%d / %d)", 100 * Double(errors) / Double(words), errors, words)
    }

    /// Stock transcribe over the passages, `repetitions` passes with one model load: the first
    /// pass's texts, every pass's seconds per passage.
    private func stockRuns(_ files: [String], setup: WhisperBenchSetup,
                           directory: URL) throws -> (texts: [String], seconds: [[Double]]) {
        let raws = try files.map { file in
            let raw = file.replacingOccurrences(of: ".wav", with: ".raw")
            let result = try ProcessRunner.run(["sox", "-D", file, "-t", "raw", "-e", "signed", "-b", "16", raw])
            guard result.status == 0 else { throw ValidationError("sox failed: \(result.stderr)") }
            return raw
        }
        let output = try ProcessRunner.run([setup.installation.python, "benchmarks/stock_whisper.py", "--passes",
                                            String(repetitions), setup.installation.models[0].path] + raws, timeout: 3600)
        guard output.status == 0 else { throw ValidationError("stock_whisper.py failed: \(output.stderr)") }
        let results = try output.stdout.split(separator: "\n").map { try JSONDecoder().decode(StockResult.self, from: Data($0.utf8)) }
        let texts = raws.map { raw in results.first { $0.path == raw && $0.pass == 0 }?.text ?? "" }
        let seconds = raws.map { raw in results.filter { $0.path == raw }.map(\.seconds) }
        return (texts, seconds)
    }

    /// Parley's file path over the passages: the first pass's texts, every pass's milliseconds.
    private func parleyRuns(_ files: [String], setup: WhisperBenchSetup) async throws -> (texts: [String], milliseconds: [[Double]]) {
        var tuning = WhisperRecognizer.Tuning()
        tuning.partialResults = false
        let whisper = WhisperRecognizer(worker: WhisperWorker(launch: try setup.installation.launch()),
                                        detector: SphinxSpeechDetector.make, tuning: tuning)
        try await whisper.start()
        let locale = LocaleTag(language: "en", region: "US")
        var texts = [String](repeating: "", count: files.count)
        var milliseconds = [[Double]](repeating: [], count: files.count)
        for pass in 0..<repetitions {
            for (index, file) in files.enumerated() {
                var results: [RecognitionResult] = []
                milliseconds[index].append(try await measureMilliseconds {
                    results = try await whisper.transcribeFile(file, locale: locale)
                })
                if pass == 0 { texts[index] = results.map(\.text).joined(separator: " ") }
            }
        }
        await whisper.worker.shutdown()
        return (texts, milliseconds)
    }
}
