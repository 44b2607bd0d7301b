import ArgumentParser
import Foundation
import Locales
import ParleyCore
import PocketSphinxRecognition
import ProcessHarness
import Translation
import WhisperRecognition

/// `parley-bench pairs`: how often the language heard puts an utterance on the right side,
/// per language pair, close languages among them (es/pt, es/ca), against alternation on an
/// irregular order. The clips of both languages are taken as one conversation in an irregular
/// order (A, A, B, A, B, B, …); each is decoded whole by the worker's two-language request,
/// the language of the side the turn order expects first (as a dialogue asks), both readings
/// translated by Apertium through their side's direction, and the side decided as a dialogue
/// decides it. The same clips then make conversations of one voice per side, where the
/// voice's pitch can give the same short words of both languages their side.
struct PairsBenchmark: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "pairs",
        abstract: "Side accuracy per language pair (en/es, en/fr, es/pt, es/ca, es/it): the language heard against alternation.")

    @Option(name: .customLong("pair"), help: "A pair as A:B (repeat it); default en-US:es-ES, en-US:fr-FR, es-ES:pt-PT, es-ES:ca-ES, es-ES:it-IT.")
    var pairs: [String] = ["en-US:es-ES", "en-US:fr-FR", "es-ES:pt-PT", "es-ES:ca-ES", "es-ES:it-IT"]

    func run() async throws {
        let pairs = try self.pairs.map { text -> (LocaleTag, LocaleTag) in
            let parts = text.split(separator: ":").compactMap { LocaleTag(String($0)) }
            guard parts.count == 2 else { throw ValidationError("--pair takes A:B, two locales such as es-ES:pt-PT, not '\(text)'") }
            return (parts[0], parts[1])
        }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("parley-pairs-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let setup = try WhisperBenchSetup.discover()
        let engines = try await SideDecisionEngines.start(setup)
        let (recognizer, translator) = (engines.recognizer, engines.translator)
        var results: [PairResult] = [], voiceResults: [PairResult] = []
        for (a, b) in pairs {
            let (clipsA, clipsB) = (try PairsCorpus.clips(a, in: directory), try PairsCorpus.clips(b, in: directory))
            let clips = PairResult.conversation(clipsA.filter { !$0.oneVoiceOnly }, clipsB.filter { !$0.oneVoiceOnly })
            _ = try? await recognizer.recognizePair(clips[0].samples, first: a, second: b)  // warm up
            var decoded: [String: PairOutcome] = [:]
            let outcomes = await converse(clips, a: a, b: b, label: "\(a)/\(b)", decoded: &decoded,
                                          recognizer: recognizer, translator: translator)
            results.append(PairResult(a: a, b: b, clips: clips, outcomes: outcomes))
            // One person per side, each with one voice: a man and a woman, a woman and a man,
            // two men. Each clip was decoded above, in the order asked; the voice decides anew.
            let voicesA = PairsCorpus.voices(of: a), voicesB = PairsCorpus.voices(of: b)
            for (voiceA, voiceB) in [(voicesA[0], voicesB[1]), (voicesA[1], voicesB[0]), (voicesA[0], voicesB[0])] {
                let clips = PairResult.conversation(Self.sentencesFirst(clipsA.filter { $0.voice == voiceA }),
                                                    Self.sentencesFirst(clipsB.filter { $0.voice == voiceB }))
                let outcomes = await converse(clips, a: a, b: b, label: "\(a) \(voiceA)/\(b) \(voiceB)", decoded: &decoded,
                                              recognizer: recognizer, translator: translator)
                voiceResults.append(PairResult(a: a, b: b, clips: clips, outcomes: outcomes, voices: (voiceA, voiceB)))
            }
        }
        await engines.shutdown()
        try PairsReport(results: results, voiceResults: voiceResults).write()
    }

    /// `clips`, their sentences before their short answers (as a conversation's first words are).
    static func sentencesFirst(_ clips: [PairsCorpus.Clip]) -> [PairsCorpus.Clip] {
        clips.filter { !$0.isShort } + clips.filter(\.isShort)
    }

    /// `clips` as one conversation, each given its side as a dialogue gives it: by the language,
    /// and where both readings are the same short words, by the voice (`VoiceProfiles`, learned
    /// from what the language gave each side) or the turn order (the side after the previous
    /// stretch's). `decoded` keeps each clip's decode per order asked.
    private func converse(_ clips: [PairsCorpus.Clip], a: LocaleTag, b: LocaleTag, label: String,
                          decoded: inout [String: PairOutcome], recognizer: WhisperRecognizer,
                          translator: ApertiumTranslator) async -> [PairOutcome] {
        var outcomes: [PairOutcome] = [], voices = VoiceProfiles()
        for (index, clip) in clips.enumerated() {
            // The turn order expects the side after the one the previous stretch was given to.
            let expected = outcomes.last.map { $0.decided == b ? a : b } ?? a
            let order = expected == a ? (a, b) : (b, a)
            let key = "\(clip.locale) \(clip.name) | \(order.0) \(order.1)"
            var outcome: PairOutcome
            if let known = decoded[key] {
                outcome = known
            } else {
                outcome = await decide(clip, first: order.0, second: order.1, recognizer: recognizer, translator: translator)
                outcome.pitch = VoicePitch.median(of: clip.samples, sampleRate: AudioFormat.recognition.sampleRate)
                decoded[key] = outcome
            }
            outcome.expected = expected
            if outcome.sameWords, let pitch = outcome.pitch, let party = voices.party(forHertz: pitch) {
                outcome.decided = party == 0 ? a : b
                outcome.byVoice = true
            } else if !outcome.sameWords, let side = outcome.decided, let pitch = outcome.pitch {
                // Where the language decided, what the voice would have said (it does not decide there).
                outcome.voiceSaid = voices.party(forHertz: pitch).map { $0 == 0 ? a : b }
                if (outcome.confidence ?? 0) >= VoiceProfiles.learningConfidence { voices.learn(pitch, party: side == a ? 0 : 1) }
            }
            outcomes.append(outcome)
            progress("pairs", "\(label) \(index + 1)/\(clips.count)")
        }
        return outcomes
    }

    /// The side the dialogue would give `clip` when its request asked for `first` then `second`.
    private func decide(_ clip: PairsCorpus.Clip, first: LocaleTag, second: LocaleTag, recognizer: WhisperRecognizer,
                        translator: ApertiumTranslator) async -> PairOutcome {
        guard let hypotheses = (try? await recognizer.recognizePair(clip.samples, first: first, second: second))?.hypotheses,
              hypotheses.count == 2 else { return PairOutcome(decided: nil, confidence: nil, sameWords: false, readings: []) }
        var evidence: [LanguagePairDecision.Evidence] = []
        for (hypothesis, direction) in zip(hypotheses, [(first, second), (second, first)]) {
            let translation = hypothesis.text.isEmpty ? nil
                : try? await translator.translate(hypothesis.text, from: direction.0, to: direction.1)
            evidence.append(LanguagePairDecision.Evidence(hypothesis, unknownWords: translation?.unknownWords.count))
        }
        let decision = LanguagePairDecision.decide(evidence[0], evidence[1])
        var lengthAside = LanguagePairDecision.Weights()
        lengthAside.coverage = 0
        let without = LanguagePairDecision.decide(evidence[0], evidence[1], weights: lengthAside)
        return PairOutcome(decided: decision.map { $0.winner == 0 ? first : second }, confidence: decision?.confidence,
                           sameWords: decision?.sameWords ?? false,
                           readings: [(first, hypotheses[0].text), (second, hypotheses[1].text)],
                           lengthChanged: decision?.winner != without?.winner,
                           modelSure: hypotheses[0].languageProbability >= 0.5
                               ? (first, hypotheses[0].languageProbability) : (second, hypotheses[1].languageProbability))
    }
}

/// One clip's decision: the locale it was given to (nil: no words in either language).
struct PairOutcome {
    var decided: LocaleTag?
    var confidence: Double?
    /// Both readings were the same short words: the turn order decided.
    var sameWords: Bool
    var readings: [(LocaleTag, String)]
    /// Without the readings' length (`LanguagePairDecision.Weights.coverage`) the other side would have had it.
    var lengthChanged = false
    /// The language the model found more probable, and how sure it was.
    var modelSure: (LocaleTag, Double)?
    /// The side the turn order expected (asked first).
    var expected: LocaleTag?
    /// The clip's pitch (`VoicePitch`); nil where too little was voiced.
    var pitch: Double?
    /// The same words in both languages, given their side by the voice.
    var byVoice = false
    /// Where the language decided: the side the voice would have given, where it tells.
    var voiceSaid: LocaleTag?
}

/// One pair's clips and their decisions.
struct PairResult {
    var a: LocaleTag
    var b: LocaleTag
    var clips: [PairsCorpus.Clip]
    var outcomes: [PairOutcome]
    /// Each side's one eSpeak NG voice; nil where each side speaks in several voices.
    var voices: (a: String, b: String)?

    func right(_ include: (PairsCorpus.Clip) -> Bool = { _ in true }) -> (right: Int, of: Int) {
        let chosen = zip(clips, outcomes).filter { include($0.0) }
        return (chosen.filter { $0.1.decided == $0.0.locale }.count, chosen.count)
    }

    /// Alternation on the same conversation: each clip is given to the side after the previous
    /// clip's own.
    var alternationRight: (right: Int, of: Int) {
        let right = clips.indices.dropFirst().filter { (clips[$0].locale == a) != (clips[$0 - 1].locale == a) }.count
        return (right + (clips.first?.locale == a ? 1 : 0), clips.count)
    }

    /// `first`'s and `second`'s clips as one conversation in an irregular order: A, A, B, A, B, B, …
    static func conversation(_ first: [PairsCorpus.Clip], _ second: [PairsCorpus.Clip]) -> [PairsCorpus.Clip] {
        let pattern = [true, true, false, true, false, false]
        var queueA = first, queueB = second, order: [PairsCorpus.Clip] = []
        while !queueA.isEmpty || !queueB.isEmpty {
            let takeA = (pattern[order.count % pattern.count] && !queueA.isEmpty) || queueB.isEmpty
            order.append(takeA ? queueA.removeFirst() : queueB.removeFirst())
        }
        return order
    }
}
