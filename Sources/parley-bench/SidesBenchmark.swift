import ArgumentParser
import Foundation
import Locales
import ParleyCore
import PocketSphinxRecognition
import ProcessHarness
import Translation
import WhisperRecognition

/// `parley-bench sides`: hands-free turns. How often the two-language decode
/// and the side decision give an utterance to the right side, on every English
/// recording of pocketsphinx-testdata and synthesized Spanish clips, and what
/// the two-language decode costs over a one-language decode of the same audio.
struct SidesBenchmark: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sides",
        abstract: "Hands-free turns: side-assignment accuracy and the cost of the two-language decode.")

    static let english = LocaleTag("en-US")!
    static let spanish = LocaleTag("es-ES")!

    func run() async throws {
        let loadBefore = RecognitionBenchmark.loadAverage()
        let clips = try SidesCorpus.load()
        let setup = try WhisperBenchSetup.discover()
        let engines = try await SideDecisionEngines.start(setup)
        let (worker, dialogue, translator) = (engines.worker, engines.recognizer, engines.translator)
        var greedyTuning = WhisperRecognizer.Tuning()
        greedyTuning.wordTimes = false
        let greedy = WhisperRecognizer(worker: worker, detector: SphinxSpeechDetector.make, tuning: greedyTuning)
        _ = try? await dialogue.recognizePair(clips[0].samples, first: Self.english, second: Self.spanish)  // warm up
        var outcomes: [SidesOutcome] = []
        for (index, clip) in clips.enumerated() {
            outcomes.append(await measure(clip, index: index, dialogue: dialogue, greedy: greedy, translator: translator))
        }
        await engines.shutdown()
        let load = (before: loadBefore, after: RecognitionBenchmark.loadAverage())
        let stages = try PairStages.measure(clips, setup: setup)
        try SidesReport(clips: clips, outcomes: outcomes, stages: stages, load: load).write()
    }

    private func measure(_ clip: SidesCorpus.Clip, index: Int, dialogue: WhisperRecognizer, greedy: WhisperRecognizer,
                         translator: ApertiumTranslator) async -> SidesOutcome {
        let (first, second) = (Self.english, Self.spanish)
        var pair: RecognitionResult?, one: RecognitionResult?
        var times = [0.0, 0.0, 0.0]
        var fullWindow = false
        let options = RecognitionOptions(alternativeCount: 0)
        // The three decodes in turn, each clip starting with the next one, so that none is always first
        // after the previous clip's translations.
        for kind in (0..<3).map({ ($0 + index) % 3 }) {
            switch kind {
            case 0:
                // Silence in both languages (emptyRecognition) is a wrong decision, not a failed run.
                let opinions = dialogue.secondOpinionCount
                times[0] = await measureMilliseconds { pair = try? await dialogue.recognizePair(clip.samples, first: first, second: second) }
                fullWindow = dialogue.secondOpinionCount > opinions
            case 1:
                times[1] = await measureMilliseconds { one = try? await dialogue.recognizeUtterance(clip.samples, locale: clip.locale) }
            default:
                times[2] = await measureMilliseconds {
                    _ = try? await greedy.recognizeUtterance(clip.samples, locale: clip.locale, options: options)
                }
            }
        }
        let (pairTime, oneTime, greedyTime) = (times[0], times[1], times[2])
        let hypotheses = pair?.hypotheses ?? []
        var evidence: [LanguagePairDecision.Evidence] = []
        for (hypothesis, direction) in zip(hypotheses, [(first, second), (second, first)]) {
            let translation = hypothesis.text.isEmpty ? nil
                : try? await translator.translate(hypothesis.text, from: direction.0, to: direction.1)
            evidence.append(LanguagePairDecision.Evidence(hypothesis, unknownWords: translation?.unknownWords.count))
        }
        return SidesOutcome(hypotheses: hypotheses, evidence: evidence, oneLanguageHeard: one != nil, fullWindow: fullWindow,
                            pairMilliseconds: pairTime,
                            oneMilliseconds: oneTime, greedyMilliseconds: greedyTime)
    }
}

/// One clip's two-language decode, the evidence and the times.
struct SidesOutcome {
    var hypotheses: [LanguageHypothesis]
    var evidence: [LanguagePairDecision.Evidence]
    /// Whether the one-language decode in the clip's own language heard words at all.
    var oneLanguageHeard: Bool
    /// Whether the short window's silence decided the pair (both readings silent, or the more probable
    /// language's alone) and the full window decoded the clip again.
    var fullWindow: Bool
    var pairMilliseconds: Double
    var oneMilliseconds: Double
    var greedyMilliseconds: Double

    /// The score the worker gives a language it did not decode (its probability was overwhelmed).
    static let skippedScore = -100.0

    /// Whether one language was not decoded.
    var skipped: Bool { hypotheses.contains { $0.decoderScore <= Self.skippedScore } }

    /// Heard by the two-language decode, silence to the one-language dialogue decode in the clip's language.
    var heardByPairOnly: Bool { !hypotheses.isEmpty && !oneLanguageHeard }

    /// The decision with `weights` (index 0 = English), nil when nothing was heard.
    func decision(_ weights: LanguagePairDecision.Weights = .init()) -> LanguagePairDecision? {
        guard evidence.count == 2 else { return nil }
        return LanguagePairDecision.decide(evidence[0], evidence[1], weights: weights)
    }
}

/// One clip's stage seconds from `benchmarks/pair_stages.py`: the worker's pair request
/// and its one-language greedy transcribe request, as each reports them.
struct PairStages: Decodable {
    var pair: [String: Double]
    var one: [String: Double]

    /// Runs `benchmarks/pair_stages.py` over the clips, written as raw files in a temporary folder.
    static func measure(_ clips: [SidesCorpus.Clip], setup: WhisperBenchSetup) throws -> [PairStages] {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("parley-sides-stages-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let arguments = try clips.enumerated().map { index, clip in
            let path = directory.appendingPathComponent("\(index).raw").path
            try clip.samples.withUnsafeBufferPointer { Data(buffer: $0) }.write(to: URL(fileURLWithPath: path))
            return "\(clip.locale.language):\(path)"
        }
        let launch = try setup.installation.launch()
        let output = try ProcessRunner.run([launch.python, "benchmarks/pair_stages.py", launch.script,
                                            launch.model.path] + arguments, timeout: 3600)
        guard output.status == 0 else { throw ValidationError("pair_stages.py failed: \(output.stderr)") }
        return try output.stdout.split(separator: "\n").map { try JSONDecoder().decode(PairStages.self, from: Data($0.utf8)) }
    }
}
