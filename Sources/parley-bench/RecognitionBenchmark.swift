import ArgumentParser
import Foundation
import ParleyCore
import PocketSphinxRecognition
import Recognition

/// `parley-bench recognition`: real-time factor, endpoint → final latency and word error
/// rate of Parley's recognizer against `pocketsphinx_continuous` on the human recordings.
struct RecognitionBenchmark: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "recognition",
        abstract: "Recognition speed, endpoint latency and accuracy vs pocketsphinx_continuous.")

    @Option(help: "Passes over the whole set.")
    var repetitions = 3

    func run() async throws {
        let corpus = try RecognitionCorpus.load()
        var report = BenchmarkReport(area: "recognition", title: "Speech recognition (PocketSphinx)",
                                     command: "scripts/with-test-server.sh scripts/bench.sh recognition")
        report.add("The \(corpus.clips.count) recordings of pocketsphinx-testdata the issue names "
            + "(\(String(format: "%.1f", corpus.totalSeconds)) s of human speech), en-US model, "
            + "passes: \(repetitions). Parley keeps one decoder loaded in one process; "
            + "`pocketsphinx_continuous` is spawned per file, loading the model each time, as a shell user would.")
        report.add("")
        let loadBefore = Self.loadAverage()
        let speed = try await measureSpeed(corpus, report: &report)
        try await measureLatency(corpus, report: &report)
        try await measureAccuracy(corpus, parley: speed, report: &report)
        report.add("Load average of the shared machine (1 min) at the start and end of the run: "
            + "\(loadBefore) and \(Self.loadAverage()); timings grow with it, for both recognizers alike.")
        try report.write()
    }

    /// The 1-minute load average from `/proc/loadavg`.
    static func loadAverage() -> String {
        let text = (try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8)) ?? "?"
        return String(text.split(separator: " ").first ?? "?")
    }

    // MARK: Speed

    private func measureSpeed(_ corpus: RecognitionCorpus, report: inout BenchmarkReport) async throws -> [String: String] {
        var loads: [Double] = [], parleyTotals: [Double] = [], parleyRTF: [Double] = []
        var transcripts: [String: String] = [:]
        for _ in 0..<repetitions {
            let recognizer = PocketSphinxRecognizer(models: PocketSphinxModelRegistry(userDirectory: nil))
            loads.append(await measureMilliseconds { _ = await recognizer.isAvailable(corpus.locale) })
            let pass = try await Self.transcribe(corpus, with: recognizer)
            transcripts = pass.transcripts
            parleyRTF += pass.rtf
            parleyTotals.append(pass.milliseconds + loads.last!)
        }
        let naive = try corpus.spawnContinuous(arguments: RecognitionCorpus.sameSettings, repetitions: repetitions)
        let rows = [
            ["Parley, one process: model load", Timings.format(Timings(loads).median) + " ms", "once", "—"],
            ["Parley, one process: real-time factor per file", String(format: "%.3f", Timings(parleyRTF).median),
             String(format: "%.3f", Timings(parleyRTF).p90), "1.0×"],
            ["pocketsphinx_continuous per file: real-time factor (load included)",
             String(format: "%.3f", Timings(naive.rtf).median), String(format: "%.3f", Timings(naive.rtf).p90),
             ratio(Timings(naive.rtf).median, Timings(parleyRTF).median)],
            ["whole set, Parley one process (load included), ms", Timings.format(Timings(parleyTotals).median),
             Timings.format(Timings(parleyTotals).p90), "1.0×"],
            ["whole set, pocketsphinx_continuous spawned per file, ms", Timings.format(Timings(naive.totals).median),
             Timings.format(Timings(naive.totals).p90), ratio(Timings(naive.totals).median, Timings(parleyTotals).median)],
        ]
        report.add("### Real-time factor (decode time ÷ audio time; target ≤ 0.15)")
        report.add("")
        report.addTable(header: ["measure", "median", "p90", "vs Parley"], rows: rows)
        return transcripts
    }

    // MARK: Latency

    /// Each clip with a second of silence after it, fed in 10 ms chunks as capture delivers
    /// them: the time of the chunk whose processing finds the endpoint is the endpoint → final latency.
    private func measureLatency(_ corpus: RecognitionCorpus, report: inout BenchmarkReport) async throws {
        var rows: [[String]] = []
        var parley: Timings?
        for flat in [false, true] {
            let recognizer = PocketSphinxRecognizer(models: PocketSphinxModelRegistry(userDirectory: nil), flatLexiconPass: flat)
            var samples: [Double] = []
            for _ in 0..<repetitions {
                for clip in corpus.clips { samples += try await endpointLatencies(clip, recognizer, corpus.locale) }
            }
            let timings = Timings(samples)
            if !flat { parley = timings }
            rows.append([flat ? "`-fwdflat yes` (pocketsphinx_continuous's default)" : "`-fwdflat no` (Parley)",
                         Timings.format(timings.median), Timings.format(timings.p90),
                         parley.map { ratio(timings.median, $0.median) } ?? "1.0×"])
        }
        report.add("### Endpoint → final result (target ≤ 30 ms median)")
        report.add("")
        report.add("From the end of the trailing-silence window (500 ms) to the final result with confidence, "
            + "alternatives and word times; the same decoder in-process with the flat-lexicon pass on and off.")
        report.add("")
        report.addTable(header: ["decoder", "median ms", "p90 ms", "vs Parley"], rows: rows)
    }

    private func endpointLatencies(_ clip: RecognitionCorpus.Clip, _ recognizer: PocketSphinxRecognizer,
                                   _ locale: LocaleTag) async throws -> [Double] {
        let continuous = try await ContinuousRecognition(recognizer: recognizer, locale: locale, options: .init())
        let padded = clip.audio.samples + [Int16](repeating: 0, count: 16_000)
        var latencies: [Double] = []
        for start in stride(from: 0, to: padded.count, by: 160) {
            let chunk = PCMChunk(format: .recognition, samples: Array(padded[start..<min(start + 160, padded.count)]))
            var events: [RecognitionEvent] = []
            let milliseconds = try await measureMilliseconds { events = try await continuous.feed(chunk) }
            if events.contains(where: \.isFinal) { latencies.append(milliseconds) }
        }
        _ = try await continuous.end()
        return latencies
    }

    // MARK: Accuracy

    private func measureAccuracy(_ corpus: RecognitionCorpus, parley: [String: String],
                                 report: inout BenchmarkReport) async throws {
        let same = corpus.naiveTranscripts(arguments: RecognitionCorpus.sameSettings)
        let defaults = corpus.naiveTranscripts(arguments: [])
        let (unpruned, unprunedRTF) = try await transcribeUnpruned(corpus)
        let settings = RecognitionCorpus.sameSettings.joined(separator: " ")
        let rows = [
            ["Parley, one process (`\(settings)`)", corpus.wordErrorRate(parley), "see above"],
            ["Parley, one process, without the pruning (`-maxhmmpf 30000`)", corpus.wordErrorRate(unpruned),
             String(format: "%.3f", Timings(unprunedRTF).median)],
            ["pocketsphinx_continuous per file, same settings", corpus.wordErrorRate(same), "see above"],
            ["pocketsphinx_continuous per file, defaults (`-fwdflat yes -maxhmmpf 30000`)",
             corpus.wordErrorRate(defaults), "—"],
        ]
        report.add("### Word error rate against the shipped transcripts")
        report.add("")
        report.add("Over the \(corpus.referenceWordCount) words of the recordings that have a transcript "
            + "(numbers.raw has none). In one process the decoder's cepstral mean carries over from file to "
            + "file, as it does between the turns of a conversation, so its words can differ from a fresh "
            + "process's; a fresh decoder gives exactly pocketsphinx_continuous's words (tested).")
        report.add("")
        report.addTable(header: ["recognizer", "WER (errors / words)", "real-time factor per file, median"],
                        rows: rows)
    }

    /// One pass over the set with PocketSphinx's default `-maxhmmpf`: what the pruning costs and saves.
    private func transcribeUnpruned(_ corpus: RecognitionCorpus) async throws -> ([String: String], [Double]) {
        let recognizer = PocketSphinxRecognizer(models: PocketSphinxModelRegistry(userDirectory: nil), maximumActiveHMMs: 30_000)
        _ = await recognizer.isAvailable(corpus.locale)
        let pass = try await Self.transcribe(corpus, with: recognizer)
        return (pass.transcripts, pass.rtf)
    }

    /// Every clip through `recognizer`: the words by clip, the real-time factor of each, the total time.
    private static func transcribe(_ corpus: RecognitionCorpus, with recognizer: PocketSphinxRecognizer) async throws
        -> (transcripts: [String: String], rtf: [Double], milliseconds: Double) {
        var transcripts: [String: String] = [:], rtf: [Double] = [], total = 0.0
        for clip in corpus.clips {
            var text: [String] = []
            let milliseconds = try await measureMilliseconds {
                text = try await recognizer.transcribe(clip.audio, locale: corpus.locale).map(\.text)
            }
            transcripts[clip.name] = text.joined(separator: " ")
            rtf.append(milliseconds / 1000 / clip.seconds)
            total += milliseconds
        }
        return (transcripts, rtf, total)
    }
}
