import Foundation
import ParleyCore
import Recognition

/// The report of `parley-bench pairs`: per pair, the stretches the language heard put on the
/// right side (sentences, short answers, all), alternation on the same clips in an irregular
/// order, and every miss with its readings.
struct PairsReport {
    var results: [PairResult]
    /// The same clips as conversations of one voice per side.
    var voiceResults: [PairResult] = []

    /// The share of stretches that must go to the right side for the language to decide the floor.
    static let target = 0.95
    /// How sure of a language the model counts as sure, for the same words.
    static let sureWrong = 0.75

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
            + "decides it; readings of one or two words that are the same in both languages (\"no\", \"ok\") go by the voice or the turn order. "
            + "None of these clips chose the decision's weights. The clips of a pair are one conversation in an irregular order "
            + "(A, A, B, A, B, B, …). Alternation: each clip given to the side after the previous clip's own. Where fewer than \(Int(Self.target * 100)) % of "
            + "sentences go to the right side, a dialogue does not let the language decide the floor for that pair "
            + "(`TooAlikeByEar` in Sources/Dialogue/Parts/Attribution.swift lists them): turns follow the turn order, and it says "
            + "so at the start. Short answers are not counted there: the same word in both languages (\"no\") has no language "
            + "for any pair: it goes by the voice where the voices tell (below), else by the turn order. Here each side "
            + "speaks in two voices, a man's and a woman's, so the voice tells nothing (`VoiceProfiles` needs one steady voice a side). "
            + "The readings' length: the stretches whose side the length of the two readings changed (one with fewer than half "
            + "the other's syllables, `LanguagePairDecision.coveringReading`), right and wrong after the change.")
        report.add("")
        report.addTable(header: ["pair", "sentences", "short answers", "all", "same words", "voice against language",
                                 "the readings' length", "alternation (irregular order)", "the floor follows"],
                        rows: results.map(row))
        report.add("")
        let same = results.flatMap { zip($0.clips, $0.outcomes).filter { $0.1.sameWords } }
        let modelRight = same.filter { $0.1.modelSure?.0 == $0.0.locale }
        report.add("The same words in both languages, had the model's own language probability decided them: right on "
            + "\(modelRight.count) of \(same.count); sure of the wrong language (\(Int(Self.sureWrong * 100)) % or more) on "
            + "\(same.filter { pair in pair.1.modelSure.map { $0.0 != pair.0.locale && $0.1 >= Self.sureWrong } ?? false }.count) "
            + "(the main conversations above).")
        report.add("")
        if !voiceResults.isEmpty {
            report.add("### One voice per side")
            report.add("")
            report.add("The same clips, decoded the same way, as conversations of one person per side: each side's clips in one "
                + "eSpeak NG voice (7 a side: 5 sentences, then 2 short answers; English's sentences here are 10 more "
                + "synthesized ones, its human recordings being of several readers), in the same irregular order. Each stretch the language "
                + "gave its side with at least \(Int(VoiceProfiles.learningConfidence * 100)) % confidence teaches that side's voice "
                + "(`VoicePitch`: the median pitch of its voiced frames); the same words in both languages then go to the side "
                + "whose voice they are in, where each side's voice is steady (within \(VoiceProfiles.steadiest) semitones), the "
                + "voices lie \(VoiceProfiles.fewestApart) semitones apart or more, and the stretch is nearer one by "
                + "\(VoiceProfiles.margin) semitones; else the turn order gives it, as above.")
            report.add("")
            report.addTable(header: ["voice", "clips", "pitch, median", "spread (semitones)", "clips with no pitch"],
                            rows: voiceRows())
            report.add("")
            report.addTable(header: ["pair", "voices (A / B)", "sentences", "short answers", "all", "same words",
                                     "voice against language", "alternation"],
                            rows: voiceResults.map { result in
                ["\(result.a) / \(result.b)", result.voices.map { "\($0.a) / \($0.b)" } ?? "",
                 Self.cell(result.right { !$0.isShort }), Self.cell(result.right(\.isShort)), Self.cell(result.right()),
                 Self.sameWordsCell(result), Self.disagreementCell(result), Self.cell(result.alternationRight)]
            })
            report.add("")
            report.add("Voice against language: the stretches the language decided where the voice, had it been asked, "
                + "would have given the other side, and how many of those the voice had right. The voice does not overrule "
                + "the language; this counts what it would change if it did. Each such disagreement silences the voice "
                + "until it has agreed with the language \(VoiceProfiles.checksKept) times in a row.")
            report.add("")
        }
        let misses = (results + voiceResults).flatMap { result in
            zip(result.clips, result.outcomes).filter { $0.1.decided != $0.0.locale }.map { (result, $0.0, $0.1) }
        }
        report.add("### Misses")
        report.add("")
        report.add(misses.isEmpty ? "None." : "Readings in the order asked (the turn order's side first); the side given, how sure "
            + "(no side: no words in either language; \"same words\": the turn order gave it).")
        report.add("")
        if !misses.isEmpty {
            report.addTable(header: ["pair", "clip", "readings", "given to"], rows: misses.map { result, clip, outcome in
                ["\(result.a.language)/\(result.b.language)" + (result.voices == nil ? "" : ", one voice a side"), clip.name,
                 outcome.readings.map { "\($0.0.language): \($0.1.isEmpty ? "(none)" : $0.1)" }.joined(separator: "; "),
                 outcome.decided.map { "\($0.language), " + (outcome.byVoice ? "same words, by voice"
                     : outcome.sameWords ? "same words" : String(format: "%.0f %%", 100 * (outcome.confidence ?? 0))) } ?? "no side"]
            })
        }
        try report.write()
    }

    /// Each eSpeak NG voice: the median of its clips' pitches, how far apart its clips lie.
    private func voiceRows() -> [[String]] {
        var pitches: [String: [String: Double?]] = [:]
        for result in results + voiceResults {
            for (clip, outcome) in zip(result.clips, result.outcomes) {
                if let voice = clip.voice { pitches[voice, default: [:]][clip.name] = outcome.pitch }
            }
        }
        return pitches.keys.sorted().map { voice in
            let clips = pitches[voice]!.values, heard = clips.compactMap { $0 }.sorted()
            let semitones = heard.map(VoicePitch.semitones)
            let spread = (semitones.max() ?? 0) - (semitones.min() ?? 0)
            return [voice, "\(clips.count)", heard.isEmpty ? "—" : String(format: "%.0f Hz", heard[heard.count / 2]),
                    String(format: "%.1f", spread), "\(clips.count - heard.count)"]
        }
    }

    private func row(_ result: PairResult) -> [String] {
        let all = result.right(), sentences = result.right { !$0.isShort }
        let share = Double(sentences.right) / Double(max(sentences.of, 1))
        return ["\(result.a) / \(result.b)", Self.cell(sentences), Self.cell(result.right(\.isShort)),
                Self.cell(all), Self.sameWordsCell(result), Self.disagreementCell(result), Self.lengthCell(result),
                Self.cell(result.alternationRight), share >= Self.target ? "the voice (language)" : "the turn order (fallback)"]
    }

    private static func sameWordsCell(_ result: PairResult) -> String {
        let same = zip(result.clips, result.outcomes).filter { $0.1.sameWords }
        let byVoice = same.filter { $0.1.byVoice }
        return "\(same.filter { $0.1.decided == $0.0.locale }.count) / \(same.count) right "
            + "(by voice: \(byVoice.filter { $0.1.decided == $0.0.locale }.count) / \(byVoice.count))"
    }

    private static func lengthCell(_ result: PairResult) -> String {
        let changed = zip(result.clips, result.outcomes).filter { $0.1.lengthChanged }
        let right = changed.filter { $0.1.decided == $0.0.locale }.count
        return "\(changed.count) changed: \(right) right, \(changed.count - right) wrong"
    }

    private static func disagreementCell(_ result: PairResult) -> String {
        let against = zip(result.clips, result.outcomes).filter { pair in pair.1.voiceSaid.map { $0 != pair.1.decided } ?? false }
        return "\(against.count) (voice right: \(against.filter { $0.1.voiceSaid == $0.0.locale }.count))"
    }

    private static func cell(_ count: (right: Int, of: Int)) -> String {
        String(format: "%d / %d (%.1f %%)", count.right, count.of, 100 * Double(count.right) / Double(max(count.of, 1)))
    }
}
