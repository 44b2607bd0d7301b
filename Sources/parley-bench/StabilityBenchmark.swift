import ArgumentParser
import Foundation
import Locales
import ParleyCore
import PocketSphinxRecognition
import Translation
import WhisperRecognition

/// `parley-bench stability`: whether Whisper's readings, and the hands-free side decisions,
/// stay the same when every feature value moves by a few float32 steps, as the features of
/// the same audio do between processors (numpy's and OpenBLAS's kernels, FFTW's codelets).
struct StabilityBenchmark: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "stability",
        abstract: "Whisper readings and side decisions under features moved by ±N float32 steps.")

    @Option(help: "Perturbed runs, seeds 1…N.")
    var seeds = 5

    @Option(help: "The most float32 steps a feature value moves, up or down.")
    var steps = 2

    func validate() throws {
        guard seeds >= 1, steps >= 1 else { throw ValidationError("--seeds and --steps take a whole number of at least 1") }
    }

    func run() async throws {
        let corpus = try RecognitionCorpus.load()
        let recordings = corpus.clips.filter { corpus.references[$0.name] != nil }
        let sides = try SidesCorpus.load()
        let setup = try WhisperBenchSetup.discover()
        let engines = try await SideDecisionEngines.start(setup)
        let (worker, recognizer, translator) = (engines.worker, engines.recognizer, engines.translator)
        var runs: [StabilityRun] = []
        for seed in 0...seeds {
            let perturbation = seed == 0 ? nil : FeaturePerturbation(steps: steps, seed: UInt64(seed))
            await worker.perturbFeatures(perturbation)
            var run = StabilityRun(seed: seed)
            for clip in recordings {
                let result = try? await recognizer.recognizeUtterance(clip.audio.samples + (clip.tail ?? []), locale: corpus.locale)
                run.transcripts[clip.name] = result?.text ?? ""
            }
            for clip in sides { run.sides.append(await Self.side(of: clip, recognizer: recognizer, translator: translator)) }
            progress("stability", seed == 0 ? "features as computed" : "seed \(seed) of \(seeds)")
            runs.append(run)
        }
        await engines.shutdown()
        try StabilityReport(corpus: corpus, recordings: recordings, sides: sides, runs: runs, steps: steps).write()
    }

    /// The side (0: English, 1: Spanish) hands-free turns give `clip`, nil when neither.
    static func side(of clip: SidesCorpus.Clip, recognizer: WhisperRecognizer, translator: ApertiumTranslator) async -> Int? {
        let (first, second) = (SidesBenchmark.english, SidesBenchmark.spanish)
        guard let pair = try? await recognizer.recognizePair(clip.samples, first: first, second: second),
              let hypotheses = pair.hypotheses, hypotheses.count == 2 else { return nil }
        var evidence: [LanguagePairDecision.Evidence] = []
        for (hypothesis, direction) in zip(hypotheses, [(first, second), (second, first)]) {
            let translation = hypothesis.text.isEmpty ? nil
                : try? await translator.translate(hypothesis.text, from: direction.0, to: direction.1)
            evidence.append(LanguagePairDecision.Evidence(hypothesis, unknownWords: translation?.unknownWords.count))
        }
        return LanguagePairDecision.decide(evidence[0], evidence[1])?.winner
    }
}

/// One pass over both sets: seed 0 is the features as computed.
struct StabilityRun {
    var seed: Int
    var transcripts: [String: String] = [:]
    var sides: [Int?] = []
}

/// The stability area's section of BENCHMARKS.md.
struct StabilityReport {
    var corpus: RecognitionCorpus
    var recordings: [RecognitionCorpus.Clip]
    var sides: [SidesCorpus.Clip]
    var runs: [StabilityRun]
    var steps: Int

    func write() throws {
        var report = BenchmarkReport(area: "stability", title: "Stability under feature rounding",
                                     command: "scripts/with-test-server.sh scripts/bench.sh stability")
        report.add("Every feature value moved by a uniformly drawn −\(steps)…\(steps) float32 steps (zeros kept), one "
            + "run per seed, against the features as computed (seed 0), with the dialogue's recognizer "
            + "(second opinions included). Recordings: the \(recordings.count) human recordings with a transcript, "
            + "one utterance each; sides: the \(sides.count) clips of the sides area (hands-free turns, en-US / es-ES).")
        report.add("")
        let base = runs[0]
        let rows = runs.map { run -> [String] in
            let changed = recordings.filter { run.transcripts[$0.name] != base.transcripts[$0.name] }.count
            let flipped = zip(run.sides, base.sides).filter { $0 != $1 }.count
            return [run.seed == 0 ? "as computed" : "seed \(run.seed)",
                    corpus.wordErrorRate(run.transcripts, normalize: true),
                    "\(changed) of \(recordings.count)",
                    accuracy(run, heldOut: false), accuracy(run, heldOut: true),
                    "\(flipped) of \(sides.count)"]
        }
        report.addTable(header: ["features", "WER (recordings)", "transcripts unlike seed 0", "sides right (tuning)",
                                 "sides right (held-out)", "side decisions unlike seed 0"], rows: rows)
        let unstable = sides.indices.filter { index in Set(runs.map { $0.sides[index] }).count > 1 }
        report.add("")
        report.add(unstable.isEmpty ? "No side decision changed under any seed."
            : "Clips whose side changed under some seed: " + unstable.map { "`\(sides[$0].name)`" }.joined(separator: ", ") + ".")
        try report.write()
    }

    private func accuracy(_ run: StabilityRun, heldOut: Bool) -> String {
        let set = sides.indices.filter { sides[$0].heldOut == heldOut }
        let right = set.filter { index in run.sides[index].map { ($0 == 0) == sides[index].isEnglish } ?? false }
        return "\(right.count) / \(set.count)"
    }
}
