import Foundation
import ParleyCore

/// The report of `parley-bench sides`: accuracy of each kind of evidence alone
/// and together on the tuning and the held-out set, alternating turns on the
/// same irregular sequence, times and where the two-language decode's time goes.
struct SidesReport {
    var clips: [SidesCorpus.Clip]
    var outcomes: [SidesOutcome]
    /// Per clip, the worker's stage seconds (`benchmarks/pair_stages.py`); empty when it did not run.
    var stages: [PairStages]
    /// The 1-minute load average before the run (other work) and after the timed decodes.
    var load: (before: String, after: String)

    func write() throws {
        var report = BenchmarkReport(area: "sides", title: "Hands-free turns (side assignment)",
                                     command: "scripts/with-test-server.sh scripts/bench.sh sides")
        let tuning = clips.filter { !$0.heldOut }, heldOut = clips.filter(\.heldOut)
        let english = tuning.filter(\.isEnglish).count
        report.add("Sides: A en-US, B es-ES. **Tuning set** (the decision's weights and the worker's pair rules were chosen on it): "
            + "\(english) English clips, every recording of pocketsphinx-testdata "
            + "(people: goforward, numbers, something, five LibriVox sentences, five cards), and "
            + "\(tuning.count - english) Spanish clips synthesized with `espeak-ng -v VOICE -s SPEED` "
            + "(voices \(SidesCorpus.voices.joined(separator: ", ")) in turn, speeds \(SidesCorpus.speeds.map(String.init).joined(separator: ", ")) words/min), "
            + "one per sentence of a traveller's conversation. **Held-out set** (used to choose nothing): "
            + "\(heldOut.filter { !$0.isEnglish }.count) Spanish sentences of another topic (shopping, the home, the family) in voices "
            + "\(SidesCorpus.heldOutSpanishVoices.joined(separator: ", ")) at \(SidesCorpus.heldOutSpeeds.map(String.init).joined(separator: ", ")) words/min, "
            + "and \(heldOut.filter(\.isEnglish).count) synthetic English sentences in voices "
            + "\(SidesCorpus.heldOutEnglishVoices.joined(separator: ", ")) at the same speeds. "
            + "Each clip is decoded whole (no detector) by "
            + "the worker's two-language request, both readings translated by Apertium through their "
            + "side's direction, and the side decided. Load average (1 min) before the run: \(load.before) "
            + "(other work on the 2-core machine; above 0.5, times are inflated by it), and after the timed decodes: "
            + "\(load.after) (this benchmark's own work included).")
        report.add("")
        report.add("### Accuracy")
        report.add("")
        report.addTable(header: ["evidence", "tuning: English", "tuning: Spanish", "tuning: all",
                                 "held-out: English (eSpeak)", "held-out: Spanish", "held-out: all"], rows: accuracyRows())
        report.add("")
        for (name, set) in [("tuning", tuning), ("held-out", heldOut)] {
            let pairs = set.compactMap { clip in clips.firstIndex { $0.name == clip.name && $0.heldOut == clip.heldOut } }
                .map { (clips[$0], outcomes[$0]) }
            let silent = pairs.filter { $0.1.hypotheses.isEmpty }
            let rescued = pairs.filter { $0.1.heardByPairOnly }.count
            let silentAlone = silent.filter { !$0.1.oneLanguageHeard }.count
            let again = pairs.filter { $0.1.fullWindow }
            let againRight = again.filter { clip, outcome in outcome.decision().map { ($0.winner == 0) == clip.isEnglish } ?? false }.count
            let skipped = pairs.filter { $0.1.skipped }
            let skippedRight = skipped.filter { clip, outcome in outcome.decision().map { ($0.winner == 0) == clip.isEnglish } ?? false }.count
            let spanishTop = pairs.filter { !$0.0.isEnglish }.map { $0.1.hypotheses.first?.languageProbability ?? 0 }.max() ?? 0
            let englishLow = pairs.filter { $0.0.isEnglish }.map { $0.1.hypotheses.first?.languageProbability ?? 1 }.min() ?? 1
            let heardAlone = pairs.filter { $0.1.oneLanguageHeard }
            let heardAloneRight = heardAlone.filter { clip, outcome in outcome.decision().map { ($0.winner == 0) == clip.isEnglish } ?? false }.count
            report.add("\(name == "tuning" ? "Tuning" : "Held-out") set: \(silent.count) clip(s) silence in both languages (no side: counted wrong; "
                + "\(silentAlone) of them silence to the one-language decode in their own language too); "
                + "\(again.count) clip(s) whose short-window silence decided the pair (silent in both languages, or in the more "
                + "probable language alone), decoded again in the full window (the second opinion): "
                + "\(again.filter { !$0.1.hypotheses.isEmpty }.count) of them heard there, \(againRight) put on the right side; "
                + "\(rescued) clip(s) heard by the two-language decode that the one-language dialogue decode in their own language called silence; "
                + "of the \(heardAlone.count) clips the one-language dialogue decode heard in their own language (what an alternating turn "
                + "would have recognized at all), \(heardAloneRight) went to the right side; "
                + "\(skipped.count) clip(s) decoded in one language only (language probability ≥ 0.9995), \(skippedRight) of them on the right side; "
                + String(format: "highest P(en) of a Spanish clip %.4f, lowest P(en) of an English clip %.4f. ", spanishTop, englishLow)
                + "Alternating turns on the same clips in an irregular order (each clip's side is the "
                + "one after the previous clip's in alternation) put \(Self.alternatingRight(set)) of \(set.count) on the right side.")
            report.add("")
        }
        report.add("### Time per utterance")
        report.add("")
        report.add("Milliseconds per clip, all \(clips.count) clips, measured through the worker's pipes; the three decodes of a clip "
            + "run in turn, each clip starting with the next one. The fair baseline is the "
            + "decode an alternating turn really does (beam 2 and word times: the text and word times it shows); "
            + "the greedy text-only decode is the cheapest one-language decode there is. Each time includes the decode again "
            + "in the full window where the recognizer asks for one (a result or pair called silent, a pair whose more probable "
            + "language's reading alone was silent, an English word the word list lacks): "
            + "\(outcomes.filter(\.fullWindow).count) of the two-language decodes.")
        report.add("")
        report.addTable(header: ["decode", "median", "p90", "sum", "two-language extra"], rows: timeRows())
        report.add("")
        if !stages.isEmpty {
            report.add("Where the time goes: the worker's own stage seconds (`benchmarks/pair_stages.py`, the worker's "
                + "Decoder in one process, each clip once; sums in ms over all clips).")
            report.add("")
            report.addTable(header: ["stage", "two languages", "one language, greedy"], rows: stageRows())
            report.add("")
        }
        report.add("### Decisions")
        report.add("")
        report.add("P(en) is the model's probability of English against Spanish; a clip silent in both languages has no "
            + "reading and no figure (the worker's answer is no words). \"(full window)\": the short window called both readings "
            + "silent, or the more probable language's reading alone, and the figures are the full window's.")
        report.add("")
        report.addTable(header: ["set", "clip", "English reading", "Spanish reading", "P(en)", "scores en / es", "unknown en / es", "side, sure"],
                        rows: decisionRows())
        try report.write()
    }

    private func accuracyRows() -> [[String]] {
        var threeCues = LanguagePairDecision.Weights()
        threeCues.coverage = 0
        var languageOnly = threeCues, scoreOnly = threeCues, unknownOnly = threeCues
        languageOnly.decoderScore = 0; languageOnly.unknownWords = 0
        scoreOnly.languageBound = 0; scoreOnly.unknownWords = 0
        unknownOnly.languageBound = 0; unknownOnly.decoderScore = 0
        return [("language probability alone", languageOnly), ("decoder score alone", scoreOnly),
                ("Apertium unknown-word rate alone", unknownOnly), ("those three, the readings' length aside", threeCues),
                ("with the readings' length (Parley)", LanguagePairDecision.Weights())]
            .map { name, weights in [name] + accuracy(weights, heldOut: false) + accuracy(weights, heldOut: true) }
    }

    private func accuracy(_ weights: LanguagePairDecision.Weights, heldOut: Bool) -> [String] {
        var right = (english: 0, spanish: 0)
        let set = zip(clips, outcomes).filter { $0.0.heldOut == heldOut }
        for (clip, outcome) in set {
            guard let decision = outcome.decision(weights), (decision.winner == 0) == clip.isEnglish else { continue }
            if clip.isEnglish { right.english += 1 } else { right.spanish += 1 }
        }
        let english = set.filter { $0.0.isEnglish }.count, spanish = set.count - english
        return ["\(right.english) / \(english)", "\(right.spanish) / \(spanish)",
                String(format: "%d / %d (%.1f %%)", right.english + right.spanish, set.count,
                       100 * Double(right.english + right.spanish) / Double(max(set.count, 1)))]
    }

    /// English and Spanish clips interleaved A, A, B, A, B, B, …; alternation expects A, B, A, B, …
    static func alternatingRight(_ clips: [SidesCorpus.Clip]) -> Int {
        let pattern = [true, true, false, true, false, false]
        var englishQueue = clips.filter(\.isEnglish), spanishQueue = clips.filter { !$0.isEnglish }
        var expectedEnglish = true, right = 0, index = 0
        while !englishQueue.isEmpty || !spanishQueue.isEmpty {
            let wantEnglish = (pattern[index % pattern.count] && !englishQueue.isEmpty) || spanishQueue.isEmpty
            let clip = wantEnglish ? englishQueue.removeFirst() : spanishQueue.removeFirst()
            if clip.isEnglish == expectedEnglish { right += 1 }
            expectedEnglish = !clip.isEnglish
            index += 1
        }
        return right
    }

    private func timeRows() -> [[String]] {
        let pair = outcomes.map(\.pairMilliseconds)
        let rows: [(String, [Double])] = [
            ("two languages, one encoder pass (greedy each)", pair),
            ("one language as an alternating turn decodes it (beam 2, word times) — the fair baseline", outcomes.map(\.oneMilliseconds)),
            ("one language, greedy, text only", outcomes.map(\.greedyMilliseconds)),
        ]
        return rows.map { name, samples in
            let timings = Timings(samples), sum = samples.reduce(0, +)
            let extra = name.hasPrefix("two") ? "—" : String(format: "%+.0f %%", 100 * (pair.reduce(0, +) / sum - 1))
            return [name, Timings.format(timings.median), Timings.format(timings.p90), Timings.format(sum), extra]
        }
    }

    private func stageRows() -> [[String]] {
        func sum(_ values: [Double?]) -> String { Timings.format(1000 * values.compactMap { $0 }.reduce(0, +)) }
        let pairTotal = stages.map { $0.pair.values.reduce(0, +) }, oneTotal = stages.map { $0.one.values.reduce(0, +) }
        return [
            ["encode (utterance + 3 s of zero frames)", sum(stages.map { $0.pair["encode"] }), sum(stages.map { $0.one["encode"] })],
            ["language step (one decoder step, both languages' probabilities)", sum(stages.map { $0.pair["detect"] }), "—"],
            ["generate (batch of two greedy, or one when a language is skipped / one greedy)",
             sum(stages.map { $0.pair["generate"] }), sum(stages.map { $0.one["decode"] })],
            ["total", sum(pairTotal), sum(oneTotal) + String(format: " (two languages %+.0f %%)",
                                                               100 * (pairTotal.reduce(0, +) / max(oneTotal.reduce(0, +), 1e-9) - 1))],
        ]
    }

    private func decisionRows() -> [[String]] {
        zip(clips, outcomes).map { clip, outcome in
            let texts = outcome.hypotheses.map { $0.decoderScore <= SidesOutcome.skippedScore ? "(not decoded)" : $0.text }
            let decision = outcome.decision()
            let side = decision.map { ($0.winner == 0 ? "A" : "B") + String(format: ", %.0f %%", 100 * $0.confidence) } ?? "none"
            let mark = decision.map { ($0.winner == 0) == clip.isEnglish } ?? false ? "" : " ✗"
            return [clip.heldOut ? "held-out" : "tuning", clip.name, texts.first ?? "", texts.last ?? "",
                    outcome.hypotheses.first.map { String(format: "%.4f", $0.languageProbability) } ?? "—",
                    outcome.hypotheses.map { $0.decoderScore <= SidesOutcome.skippedScore ? "—" : String(format: "%.2f", $0.decoderScore) }
                        .joined(separator: " / "),
                    outcome.evidence.map { $0.unknownWordRate.map { String(format: "%.2f", $0) } ?? "—" }.joined(separator: " / ")
                        + (outcome.heardByPairOnly ? " (one-language: silence)" : "")
                        + (outcome.fullWindow ? " (full window)" : ""),
                    side + mark]
        }
    }
}
