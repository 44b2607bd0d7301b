import ArgumentParser
import Foundation
import ProcessHarness

/// `parley-bench simultaneous`: long passages spoken into `parley dialog en-US es-ES` on the
/// test server, interpreted turn by turn (the baseline) and simultaneously with each commit
/// policy: when the translation is first heard and how far behind the listener is when the
/// passage ends (on recordings of the microphone's and the speaker's monitors), each clause's
/// ear-voice span (from the transcript), and the committed text's word errors against the
/// whole-utterance decode and against the transcript of the recordings.
struct SimultaneousBenchmark: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "simultaneous",
        abstract: "Simultaneous interpretation vs turn-based on long passages: ear-voice span, lag, committed WER.")

    @Option(help: "Runs of each mode on each passage.")
    var trials = 2

    @Option(name: .customLong("passage"), help: ArgumentHelp("Only this passage (0: 17.8 s … 3: 53.6 s); repeat for more.", valueName: "index"))
    var only: [Int] = []

    @Option(name: .customLong("mode"), help: ArgumentHelp("Only this mode (turn-based, local-agreement, align-att, headsets, echo-room, turns-echo-room); repeat for more.", valueName: "mode"))
    var modes: [Mode] = []

    @Option(help: ArgumentHelp("short: 0.25 s between the clips, one utterance; natural: 0.8, 0.6 and 1.0 s in turn, as a person pauses between sentences (a section of its own).",
                               valueName: "short|natural"))
    var pauses: Pauses = .short

    @Option(name: .customLong("yield-ms"), help: ArgumentHelp("Passed to parley dialog: the silence that ends a simultaneous turn (default: parley's; a section of its own).",
                                                              valueName: "ms"))
    var yieldMilliseconds: Int?

    @Option(name: .customLong("duck-db"), help: ArgumentHelp("Passed to parley dialog: how much quieter a clause plays while its speaker holds the floor (default: parley's; a section of its own).",
                                                             valueName: "dB"))
    var duckDecibels: Int?

    /// The options given to `parley dialog` in every trial.
    private var dialogOptions: [String] {
        (yieldMilliseconds.map { ["--yield-ms", String($0)] } ?? []) + (duckDecibels.map { ["--duck-db", String($0)] } ?? [])
    }

    enum Pauses: String, ExpressibleByArgument {
        case short, natural

        var seconds: [Double] { self == .short ? [0.25] : [0.8, 0.6, 1.0] }
    }

    typealias Mode = SimultaneousTrial.Mode

    /// A passage as played: its name, its file, its length and what was said.
    struct Played {
        var name: String
        var file: String
        var seconds: Double
        var reference: String
    }

    func run() async throws {
        guard trials > 0 else { throw ValidationError("--trials must be at least 1") }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("parley-simultaneous-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let passages = try Self.passages(in: directory, pauses: pauses.seconds).enumerated().filter { only.isEmpty || only.contains($0.offset) }.map(\.element)
        var outcomes: [[Mode: [SimultaneousTrial.Outcome]]] = Array(repeating: [:], count: passages.count)
        for (index, passage) in passages.enumerated() {
            for trial in 0..<trials {
                for mode in Mode.allCases where modes.isEmpty || modes.contains(mode) {
                    let outcome = try SimultaneousTrial(file: passage.file, mode: mode, directory: directory,
                                                        options: dialogOptions).run()
                    outcomes[index][mode, default: []].append(outcome)
                    progress("simultaneous", "\(passage.name), \(mode.label), trial \(trial + 1): \(outcome.clauses) clauses, "
                        + "first audio \(Self.seconds(outcome.firstTranslated.map { $0 - outcome.passageEnd })) after the end, "
                        + "lag \(Self.seconds(outcome.lastTranslated.map { $0 - outcome.passageEnd })), "
                        + "\(outcome.turns) turn(s): '\(outcome.committed)'")
                }
            }
        }
        try report(passages, outcomes)
    }

    /// The three `LongSpeechPassages` and one of about 54 s: the twelve clips and two more LibriVox sentences.
    static func passages(in directory: URL, pauses: [Double] = [0.25]) throws -> [Played] {
        let references = try RecognitionCorpus.load().references
        var longest = LongSpeechPassages.all[2]
        let more = ["920", "880"].map { "librivox/sense_and_sensibility_01_austen_64kb-0\($0).wav" }
        longest.clips += more
        longest.reference = ([longest.reference] + more.map { references[$0] ?? "" }).joined(separator: " ")
        return try (LongSpeechPassages.all + [longest]).enumerated().map { index, passage in
            let file = try LongSpeechPassages.build(passage, pauses: pauses, in: directory)
            let length = try ProcessRunner.run(["soxi", "-D", file])
            guard length.status == 0, let seconds = Double(length.stdout.trimmingCharacters(in: .whitespacesAndNewlines)) else {
                throw BenchmarkFailure("soxi could not read \(file): \(length.stderr)")
            }
            let name = index == 3 ? String(format: "fourteen clips (%.1f s)", seconds)
                : index == 0 ? passage.name + ", under 20 s" : passage.name
            return Played(name: name, file: file, seconds: seconds, reference: passage.reference)
        }
    }

    private func report(_ passages: [Played], _ outcomes: [[Mode: [SimultaneousTrial.Outcome]]]) throws {
        // A run of some passages or modes is a section of its own: the whole run's stays.
        let selected = !only.isEmpty || !modes.isEmpty
        let selection = (only.sorted().map { "--passage \($0)" } + modes.map { "--mode \($0.rawValue)" }).joined(separator: " ")
        // Natural pauses, or another yield silence, are a section of their own too.
        let variant = ([pauses == .natural ? "--pauses natural" : nil]
            + [yieldMilliseconds.map { "--yield-ms \($0)" }, duckDecibels.map { "--duck-db \($0)" }]).compactMap { $0 }.joined(separator: " ")
        let command = "scripts/with-test-server.sh scripts/bench.sh simultaneous"
        var report = !variant.isEmpty
            ? BenchmarkReport(area: "simultaneous-" + variant.replacingOccurrences(of: "--", with: "").replacingOccurrences(of: " ", with: "-"),
                              title: "Simultaneous interpretation, \(variant)",
                              command: "\(command) -- --trials \(trials) \(variant) \(selection)")
            : selected
            ? BenchmarkReport(area: "simultaneous-selection", title: "Simultaneous interpretation, a selection",
                              command: "\(command) -- --trials \(trials) \(selection)")
            : BenchmarkReport(area: "simultaneous", title: "Simultaneous interpretation", command: command)
        let ending = "at the yield silence (`--yield-ms`, \(yieldMilliseconds.map { "\($0) ms" } ?? "parley's default"))"
        let pausing = pauses == .short ? "0.25 s pauses, one utterance to its end"
            : "pauses of 0.8, 0.6 and 1.0 s in turn, as a person pauses between sentences; a simultaneous turn ends \(ending)"
        report.add("Passages of continuous English built from the recordings of pocketsphinx-testdata (`LongSpeechPassages`: "
            + "each clip's silent edges trimmed, \(pausing); the fourth is the "
            + "twelve clips followed by LibriVox sentences 0920 and 0880), played with `paplay` into the test server's "
            + "`parley_mic` while `parley dialog en-US es-ES --transcript FILE --no-history` listens (echo cancellation "
            + "auto, Whisper), \(trials) run(s) of each mode on each passage, each run a fresh process. Baseline: "
            + "turn-based (the translation is spoken after the endpoint); against it `--simultaneous` with "
            + "`--commit-policy local-agreement` and `align-att`, and local agreement with a headset each "
            + "(`--source-b`, `--sink-b`: side B on null sinks of its own, side A's translations on another, "
            + "`--echo-cancel off`), and local agreement with Parley's defaults in one room whose speaker the "
            + "microphone hears (a loopback from `parley_speaker`'s monitor into `parley_mic`, "
            + "\(SimultaneousTrial.echoRoomLatency) ms, 0 dB; there the passage ends as long after its first sound as in "
            + "its file); and turn by turn with the defaults in that room (`turns-echo-room`: each pause the endpoint hears "
            + "ends a sentence of A's, whose translation waits for the yield silence while A goes on; A's turns are read, "
            + "a sentence taken for B's is lost). The monitors of `parley_mic` and `parley_speaker` "
            + "are recorded on one timeline (10 ms frames): the passage runs from its first to its last sound on the "
            + "microphone, the translation from its first to its last sound on the speaker.")
        report.add("")
        report.add("- *first audio*: the translation's first sound, seconds after the passage started, and seconds before "
            + "the passage ended (negative: after it ended).")
        report.add("- *lag at end*: the translation's last sound minus the passage's end: how long the listener hears "
            + "translation after the speaker stopped.")
        report.add("- *ear-voice span* (EVS): per clause, `speak_start − source_end` from the transcript's `clauses` (session "
            + "clock: when playback of the clause began, from the end of its last word). Turn-based: the whole turn is "
            + "one clause, its EVS the first sound on the speaker minus the passage's end (wall clock).")
        report.add("- *WER vs final*: the committed text (every clause's `text` in order, the tail last) against the "
            + "turn-based run's `text` for the same passage (the whole-utterance decode). *WER vs reference*: the "
            + "committed text (turn-based: `text`) against the recordings' transcripts. Words in lower case, no "
            + "punctuation, numbers up to twelve spelled.")
        report.add("- *words lost / min*: the reference's words the committed text does not have (left out, or read as "
            + "another word; the reference less the longest sequence of words both share in order), per minute of "
            + "passage played.")
        report.add("- ×: simultaneous ÷ turn-based, of *first audio after the start* and of *lag at end* (below 1: sooner).")
        report.add("- *level under speech*: what a listener hears of the translation while the speaker talks, against the "
            + "speaker's voice: the power of the speaker's sounding 10 ms frames (above −50 dBFS) during the passage, over "
            + "that of the passage's own (its file), in dB, median over runs. On the loudspeaker the microphone hears, a "
            + "clause plays quieter by `--duck-db` (\(duckDecibels.map { "\($0) dB" } ?? "parley's default")) while its "
            + "speaker holds the floor.")
        report.add("- *translation missed alone* / *under the speaker's voice*: what a listener can follow. The speaker's "
            + "recording is decoded in Spanish (`parley listen --locale es-ES --file`), alone and with the passage added "
            + "where the microphone heard it, at the level it was played (a listener in the room hears both voices as "
            + "loud as they were played). Counted: the words of what Parley said (the clauses' `translation`, turn by "
            + "turn the turns') that a reading does not have in order, over all of them, pooled over runs; words a "
            + "reading adds (the speaker's English written as Spanish) are not counted. The first is the floor set by "
            + "eSpeak NG, the clauses' speed and Whisper base; the second adds what the speaker's voice over the "
            + "translation takes. Whisper base is a harsh listener: unlike a person, who follows one voice among two, "
            + "it reads the louder one.")
        report.add("")
        report.add("Targets: median ear-voice span ≤ 2.0 s; committed WER within 1.5 points of the final text's "
            + "(both the WER vs final, and the WER vs reference minus the turn-based one).")
        report.add("")
        report.add("- *commit*: per clause, when Parley had it (`committed`, the clause event's arrival) minus the end of its "
            + "last word (`source_end`), median: the part of the ear-voice span that recognition takes. *sped up*: the "
            + "clauses spoken faster than the listening side's rate because the listener was more than 1 s behind, and "
            + "the fastest (the limit is 1.5×).")
        report.add("")
        let header = ["mode", "clauses", "EVS median", "EVS p90", "commit", "sped up", "first audio after start", "first audio before end",
                      "lag at end", "WER vs final", "WER vs reference", "words lost / min", "× first audio", "× lag at end",
                      "level under speech", "translation missed alone", "under the speaker's voice"]
        for (index, passage) in passages.enumerated() {
            report.add("### \(passage.name), \(Self.words(passage.reference)) words, played \(String(format: "%.1f", passage.seconds)) s")
            report.add("")
            let base = outcomes[index][.turnBased] ?? []
            report.addTable(header: header, rows: Mode.allCases.filter { outcomes[index][$0] != nil }.map { mode in
                row(mode, outcomes[index][mode] ?? [], base: base,
                    references: Array(repeating: (passage.reference, passage.seconds), count: outcomes[index][mode]?.count ?? 0))
            })
        }
        report.add("### All passages pooled")
        report.add("")
        report.addTable(header: header, rows: Mode.allCases.filter { mode in outcomes.contains { $0[mode] != nil } }.map { mode in
            let runs = passages.indices.flatMap { outcomes[$0][mode] ?? [] }
            let base = passages.indices.flatMap { outcomes[$0][.turnBased] ?? [] }
            let references = passages.indices.flatMap { index in
                Array(repeating: (passages[index].reference, passages[index].seconds), count: outcomes[index][mode]?.count ?? 0)
            }
            return row(mode, runs, base: base, references: references)
        })
        report.add("Medians over passages (and runs); EVS over every clause; WER pooled as errors over words; × of the sums.")
        report.add("")
        report.add("### What each committed")
        report.add("")
        report.addTable(header: ["passage", "mode", "turns", "committed text"], rows: passages.indices.flatMap { index in
            Mode.allCases.flatMap { mode in
                (outcomes[index][mode] ?? []).map { [passages[index].name, mode.label, "\($0.turns)", $0.committed] }
            }
        })
        try report.write()
    }

    /// One table row over `runs` of a mode; `base` are the turn-based runs in the same order, and
    /// `references` the transcripts of the runs' passages with the seconds each was played.
    private func row(_ mode: Mode, _ runs: [SimultaneousTrial.Outcome], base: [SimultaneousTrial.Outcome],
                     references: [(text: String, seconds: Double)]) -> [String] {
        let turnBased = mode.isTurnBased
        let spans = turnBased ? runs.compactMap { run in run.firstTranslated.map { $0 - run.passageEnd } }
            : runs.flatMap(\.earVoiceSpans)
        let firstAfterStart = runs.compactMap { run in run.firstTranslated.map { $0 - run.passageStart } }
        let firstBeforeEnd = runs.compactMap { run in run.firstTranslated.map { run.passageEnd - $0 } }
        let lags = runs.compactMap { run in run.lastTranslated.map { $0 - run.passageEnd } }
        let baseFirst = base.compactMap { run in run.firstTranslated.map { $0 - run.passageStart } }
        let baseLags = base.compactMap { run in run.lastTranslated.map { $0 - run.passageEnd } }
        let versusFinal = zip(runs, base).map { (Self.spoken($0.committed), Self.spoken($1.text)) }
        let versusReference = zip(runs, references).map { (Self.spoken($0.committed), $1.text) }
        let lost = versusReference.map { RecognitionCorpus.wordsMissing($0.0, $0.1) }.reduce(0, +)
        let minutes = references.prefix(runs.count).map(\.seconds).reduce(0, +) / 60
        return [mode.label, turnBased ? "\(runs.count) whole turn(s)" : "\(runs.map(\.clauses).reduce(0, +))",
                Self.median(spans), Self.percentile(spans, 0.9), Self.median(runs.flatMap(\.commitLatencies)),
                Self.spedUp(runs.flatMap(\.speeds)), Self.median(firstAfterStart), Self.median(firstBeforeEnd),
                Self.median(lags), Self.wer(versusFinal), Self.wer(versusReference),
                minutes > 0 ? String(format: "%.1f (%d in %.1f min)", Double(lost) / minutes, lost, minutes) : "–",
                Self.ratio(firstAfterStart, baseFirst), Self.ratio(lags, baseLags), Self.level(runs.compactMap(\.levelUnderSpeech)),
                Self.missed(runs.compactMap(\.heard).map { (Self.spoken($0.alone), Self.spoken($0.said)) }),
                Self.missed(runs.compactMap(\.heard).map { (Self.spoken($0.underSpeech), Self.spoken($0.said)) })]
    }

    /// `−10.4 dB`: the median of `values`, in dB.
    private static func level(_ values: [Double]) -> String {
        values.isEmpty ? "–" : String(format: "%.1f dB", Timings(values).percentile(0.5))
    }

    /// `9 / 14, ≤ 1.5×`: clauses spoken faster than normal, and the fastest.
    private static func spedUp(_ speeds: [Double]) -> String {
        guard !speeds.isEmpty else { return "–" }
        return String(format: "%d / %d, ≤ %.1f×", speeds.filter { $0 > 1 }.count, speeds.count, speeds.max() ?? 1)
    }

    private static func spoken(_ text: String) -> String { RecognitionCorpus.spokenWords(text) }

    private static func words(_ text: String) -> Int { text.split(separator: " ").count }

    /// `4.3 % (2 / 46)` of (hypothesis, reference) pairs, errors and words summed.
    private static func wer(_ pairs: [(String, String)]) -> String { rate(pairs, RecognitionCorpus.wordErrors) }

    /// `41.0 % (80 / 195)` of (hypothesis, reference) pairs: the reference's words the hypothesis
    /// does not have in order (`RecognitionCorpus.wordsMissing`), summed; words it adds are not counted.
    private static func missed(_ pairs: [(String, String)]) -> String { rate(pairs, RecognitionCorpus.wordsMissing) }

    /// `counted` over the pairs' reference words, as `4.3 % (2 / 46)`.
    private static func rate(_ pairs: [(String, String)], _ counted: (String, String) -> Int) -> String {
        let count = pairs.map { counted($0.0, $0.1) }.reduce(0, +)
        let total = pairs.map { words($0.1) }.reduce(0, +)
        guard total > 0 else { return "–" }
        return String(format: "%.1f %% (%d / %d)", 100 * Double(count) / Double(total), count, total)
    }

    private static func median(_ values: [Double]) -> String { percentile(values, 0.5) }

    private static func percentile(_ values: [Double], _ fraction: Double) -> String {
        values.isEmpty ? "–" : seconds(Timings(values).percentile(fraction))
    }

    private static func ratio(_ values: [Double], _ base: [Double]) -> String {
        let (sum, baseSum) = (values.reduce(0, +), base.reduce(0, +))
        return values.isEmpty || base.isEmpty || baseSum <= 0 ? "–" : String(format: "%.2f×", sum / baseSum)
    }

    static func seconds(_ value: Double?) -> String { value.map { String(format: "%.2f s", $0) } ?? "–" }
}
