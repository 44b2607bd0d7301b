import Foundation
import ParleyCore

/// The report of `parley-bench sides`: accuracy of each kind of evidence alone
/// and together, alternating turns on the same irregular sequence, and times.
struct SidesReport {
    var clips: [SidesCorpus.Clip]
    var outcomes: [SidesOutcome]
    var load: String

    func write() throws {
        var report = BenchmarkReport(area: "sides", title: "Hands-free turns (side assignment)",
                                     command: "scripts/with-test-server.sh scripts/bench.sh sides")
        let english = clips.filter(\.isEnglish).count
        report.add("Sides: A en-US, B es-ES. \(english) English clips: every recording of pocketsphinx-testdata "
            + "(people: goforward, numbers, something, five LibriVox sentences, five cards). "
            + "\(clips.count - english) Spanish clips synthesized with `espeak-ng -v VOICE -s SPEED` "
            + "(voices \(SidesCorpus.voices.joined(separator: ", ")) in turn, speeds \(SidesCorpus.speeds.map(String.init).joined(separator: ", ")) words/min), "
            + "one per sentence of a traveller's conversation. Each clip is decoded whole (no detector) by "
            + "the worker's two-language request, both readings translated by Apertium through their "
            + "side's direction, and the side decided. Load average during the run (1, 5, 15 min): \(load) "
            + "(the machine has 2 cores; above 2, times are inflated by other work).")
        report.add("")
        report.add("### Accuracy")
        report.add("")
        report.addTable(header: ["evidence", "English right", "Spanish right", "all right"], rows: accuracyRows())
        report.add("")
        report.add("The decision's weights were chosen on this same set (the middle of the range that put every heard clip on its side), so the accuracy of the combination is not a held-out figure.")
        report.add("")
        let silent = outcomes.filter { $0.hypotheses.isEmpty }.count, silentBoth = outcomes.filter { $0.hypotheses.isEmpty && !$0.oneLanguageHeard }.count
        report.add("\(silent) clips were silence in both languages to the decoder (no side: counted wrong); for \(silentBoth) of them "
            + "the one-language decode in the clip's own language heard nothing either (Whisper's no-speech rule).")
        report.add("")
        report.add("Alternating turns on the same clips in an irregular order (each clip's side is the "
            + "one after the previous clip's in alternation) put \(alternatingRight()) of \(clips.count) on the right side.")
        report.add("")
        report.add("### Time per utterance")
        report.add("")
        report.addTable(header: ["decode", "median", "p90", "sum", "two-language extra"], rows: timeRows())
        report.add("")
        report.add("### Decisions")
        report.add("")
        report.addTable(header: ["clip", "English reading", "Spanish reading", "P(en)", "scores en / es", "unknown en / es", "side, sure"],
                        rows: decisionRows())
        try report.write()
    }

    private func accuracyRows() -> [[String]] {
        var languageOnly = LanguagePairDecision.Weights(), scoreOnly = languageOnly, unknownOnly = languageOnly
        languageOnly.decoderScore = 0; languageOnly.unknownWords = 0
        scoreOnly.languageBound = 0; scoreOnly.unknownWords = 0
        unknownOnly.languageBound = 0; unknownOnly.decoderScore = 0
        return [("language probability alone", languageOnly), ("decoder score alone", scoreOnly),
                ("Apertium unknown-word rate alone", unknownOnly), ("all three (Parley)", LanguagePairDecision.Weights())]
            .map { name, weights in [name] + accuracy(weights) }
    }

    private func accuracy(_ weights: LanguagePairDecision.Weights) -> [String] {
        var right = (english: 0, spanish: 0)
        for (clip, outcome) in zip(clips, outcomes) {
            guard let decision = outcome.decision(weights), (decision.winner == 0) == clip.isEnglish else { continue }
            if clip.isEnglish { right.english += 1 } else { right.spanish += 1 }
        }
        let english = clips.filter(\.isEnglish).count, spanish = clips.count - english
        return ["\(right.english) / \(english)", "\(right.spanish) / \(spanish)",
                String(format: "%d / %d (%.1f %%)", right.english + right.spanish, clips.count,
                       100 * Double(right.english + right.spanish) / Double(clips.count))]
    }

    /// English and Spanish clips interleaved A, A, B, A, B, B, …; alternation expects A, B, A, B, …
    private func alternatingRight() -> Int {
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
            ("one language as a dialogue turn decodes it (beam 2, word times)", outcomes.map(\.oneMilliseconds)),
            ("one language, greedy, text only", outcomes.map(\.greedyMilliseconds)),
        ]
        return rows.map { name, samples in
            let timings = Timings(samples), sum = samples.reduce(0, +)
            let extra = name.hasPrefix("two") ? "—" : String(format: "%+.0f %%", 100 * (pair.reduce(0, +) / sum - 1))
            return [name, Timings.format(timings.median), Timings.format(timings.p90), Timings.format(sum), extra]
        }
    }

    private func decisionRows() -> [[String]] {
        zip(clips, outcomes).map { clip, outcome in
            let texts = outcome.hypotheses.map(\.text)
            let decision = outcome.decision()
            let side = decision.map { ($0.winner == 0 ? "A" : "B") + String(format: ", %.0f %%", 100 * $0.confidence) } ?? "none"
            let mark = decision.map { ($0.winner == 0) == clip.isEnglish } ?? false ? "" : " ✗"
            return [clip.name, texts.first ?? "", texts.last ?? "",
                    String(format: "%.3f", outcome.hypotheses.first?.languageProbability ?? 0),
                    outcome.hypotheses.map { String(format: "%.2f", $0.decoderScore) }.joined(separator: " / "),
                    outcome.evidence.map { $0.unknownWordRate.map { String(format: "%.2f", $0) } ?? "—" }.joined(separator: " / "),
                    side + mark]
        }
    }
}
