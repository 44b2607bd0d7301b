import Foundation
import ParleyCore
import Recognition

/// The report of `parley-bench pairs`: per pair, the stretches the language heard put on the
/// right side (sentences, short answers, all), alternation on the same clips in an irregular
/// order, and every miss with its readings.
struct PairsReport {
    var results: [PairResult]

    /// The share of stretches that must go to the right side for the language to decide the floor.
    static let target = 0.95

    func write() throws {
        var report = BenchmarkReport(area: "pairs", title: "Side accuracy per language pair",
                                     command: "scripts/with-test-server.sh scripts/bench.sh pairs")
        report.add("Each pair's clips: for every language, \(PairsCorpus.languages["es"]!.sentences.count) sentences of a "
            + "traveller's errands and \(PairsCorpus.languages["es"]!.short.count) short answers (\"sí\", \"ok\", \"gracias\", \"no\" "
            + "and their like), synthesized with `espeak-ng -v VOICE -s SPEED` in two voices at "
            + "\(PairsCorpus.speeds.map(String.init).joined(separator: " and ")) words/min; English adds every human recording of "
            + "pocketsphinx-testdata (\(SidesCorpus.englishNames.count)). Each clip is decoded whole by the worker's two-language "
            + "request, the language of the side the turn order expects asked first (the side after the previous stretch's), "
            + "both readings translated by Apertium through their side's direction (en/fr through Spanish), and the side decided as a dialogue "
            + "decides it; readings of one or two words that are the same in both languages (\"no\", \"ok\") go by the turn order. "
            + "None of these clips chose the decision's weights. The clips of a pair are one conversation in an irregular order "
            + "(A, A, B, A, B, B, …). Alternation: each clip given to the side after the previous clip's own. Where fewer than \(Int(Self.target * 100)) % of "
            + "sentences go to the right side, a dialogue does not let the language decide the floor for that pair "
            + "(`TooAlikeByEar` in Sources/Dialogue/Parts/Attribution.swift lists them): turns follow the turn order, and it says "
            + "so at the start. Short answers are not counted there: the same word in both languages (\"no\") has no language "
            + "for any pair, and goes by the turn order everywhere.")
        report.add("")
        report.addTable(header: ["pair", "sentences", "short answers", "all", "same words (turn order)",
                                 "alternation (irregular order)", "the floor follows"],
                        rows: results.map(row))
        report.add("")
        let misses = results.flatMap { result in
            zip(result.clips, result.outcomes).filter { $0.1.decided != $0.0.locale }.map { (result, $0.0, $0.1) }
        }
        report.add("### Misses")
        report.add("")
        report.add(misses.isEmpty ? "None." : "Readings in the order asked (the turn order's side first); the side given, how sure "
            + "(no side: no words in either language; \"same words\": the turn order gave it).")
        report.add("")
        if !misses.isEmpty {
            report.addTable(header: ["pair", "clip", "readings", "given to"], rows: misses.map { result, clip, outcome in
                ["\(result.a.language)/\(result.b.language)", clip.name,
                 outcome.readings.map { "\($0.0.language): \($0.1.isEmpty ? "(none)" : $0.1)" }.joined(separator: "; "),
                 outcome.decided.map { "\($0.language), " + (outcome.sameWords ? "same words"
                     : String(format: "%.0f %%", 100 * (outcome.confidence ?? 0))) } ?? "no side"]
            })
        }
        try report.write()
    }

    private func row(_ result: PairResult) -> [String] {
        let all = result.right(), sentences = result.right { !$0.isShort }
        let share = Double(sentences.right) / Double(max(sentences.of, 1))
        return ["\(result.a) / \(result.b)", Self.cell(sentences), Self.cell(result.right(\.isShort)),
                Self.cell(all), Self.sameWordsCell(result), Self.cell(result.alternationRight),
                share >= Self.target ? "the voice (language)" : "the turn order (fallback)"]
    }

    private static func sameWordsCell(_ result: PairResult) -> String {
        let same = zip(result.clips, result.outcomes).filter { $0.1.sameWords }
        return "\(same.filter { $0.1.decided == $0.0.locale }.count) / \(same.count) right"
    }

    private static func cell(_ count: (right: Int, of: Int)) -> String {
        String(format: "%d / %d (%.1f %%)", count.right, count.of, 100 * Double(count.right) / Double(max(count.of, 1)))
    }
}
