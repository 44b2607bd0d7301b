import ArgumentParser
import ChildProcesses
import Foundation
import Locales
import ParleyCore
import Translation

/// `parley-bench translation`: per-sentence latency of the persistent Apertium
/// pipelines against the `apertium` command spawned for every sentence.
struct TranslationBenchmark: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "translation",
        abstract: "Persistent Apertium pipelines vs `apertium` spawned per sentence.")

    @Option(help: "How many sentences (half English → Spanish, half Spanish → English).")
    var sentences = 200

    /// One sentence to translate, with its direction.
    struct Case {
        var text: String
        var source: LocaleTag
        var target: LocaleTag
        var direction: String
    }

    func run() async throws {
        let registry = try LocaleRegistry.load(from: [DataDirectories.sourceTreeDataDirectory])
        let cases = Self.cases(count: sentences)
        let cold = try await coldFirstSentences(registry: registry, cases: cases)
        let full = ApertiumTranslator(locales: registry.catalog)
        let cleanOnly = ApertiumTranslator(locales: registry.catalog, configuration: .init(reportsUnknownWords: false))
        let persistent = try await timePersistent(full, cases)
        let persistentClean = try await timePersistent(cleanOnly, cases)
        await full.shutdown()
        await cleanOnly.shutdown()
        let spawnedClean = try timeSpawned(cases, arguments: ["-u"])
        let spawnedMarked = try timeSpawned(cases, arguments: [])
        var report = BenchmarkReport(area: "translation", title: "Translation (Apertium)",
                                     command: "scripts/with-test-server.sh scripts/bench.sh translation")
        describe(into: &report, count: cases.count)
        addLatency(to: &report, persistent: persistent.timings, persistentClean: persistentClean.timings,
                   spawnedClean: spawnedClean.timings, spawnedMarked: spawnedMarked.timings)
        addCold(to: &report, cold)
        addIdentity(to: &report, persistent: persistent, spawnedClean: spawnedClean, spawnedMarked: spawnedMarked)
        try await addPivot(to: &report, registry: registry)
        try await addEverydayDrift(to: &report, registry: registry)
        try report.write()
    }

    /// Alternating English and Spanish sentences from the translation tests' corpora.
    static func cases(count: Int) -> [Case] {
        let english = LocaleTag(language: "en", region: "US"), spanish = LocaleTag(language: "es", region: "ES")
        let englishLines = corpus("eng.txt"), spanishLines = corpus("spa.txt")
        return (0..<count).map { index in
            index.isMultiple(of: 2)
                ? Case(text: englishLines[(index / 2) % englishLines.count], source: english, target: spanish, direction: "eng-spa")
                : Case(text: spanishLines[(index / 2) % spanishLines.count], source: spanish, target: english, direction: "spa-eng_US")
        }
    }

    private static func corpus(_ file: String) -> [String] {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { url.deleteLastPathComponent() }
        url.appendPathComponent("Tests/TranslationTests/Sentences/\(file)")
        return ((try? String(contentsOf: url, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
    }
}

/// Timings and outputs of one way of translating every case.
struct TranslationRun {
    var timings: Timings
    var texts: [String]
    var marked: [String?] = []
}

extension TranslationBenchmark {
    private func timePersistent(_ translator: ApertiumTranslator, _ cases: [Case]) async throws -> TranslationRun {
        for direction in [cases[0], cases[1]] { try await translator.prepare(from: direction.source, to: direction.target) }
        var samples: [Double] = [], texts: [String] = [], marked: [String?] = []
        for item in cases {
            var translation: MarkedTranslation?
            samples.append(try await measureMilliseconds {
                translation = try await translator.translateMarked(item.text, from: item.source, to: item.target)
            })
            texts.append(translation?.result.text ?? "")
            marked.append(translation?.markedText)
        }
        return TranslationRun(timings: Timings(samples), texts: texts, marked: marked)
    }

    private func timeSpawned(_ cases: [Case], arguments: [String]) throws -> TranslationRun {
        var samples: [Double] = [], texts: [String] = []
        for item in cases {
            var text = ""
            samples.append(try measureMilliseconds { text = try Self.spawnApertium(arguments + [item.direction], item.text) })
            texts.append(text)
        }
        return TranslationRun(timings: Timings(samples), texts: texts)
    }

    /// The first sentence of each direction on a new translator: process start, dictionary loading, translation.
    private func coldFirstSentences(registry: LocaleRegistry, cases: [Case]) async throws -> [(String, Double, Double)] {
        var rows: [(String, Double, Double)] = []
        for item in [cases[0], cases[1]] {
            let translator = ApertiumTranslator(locales: registry.catalog)
            let persistent = try await measureMilliseconds {
                _ = try await translator.translate(item.text, from: item.source, to: item.target)
            }
            await translator.shutdown()
            let spawned = try measureMilliseconds { _ = try Self.spawnApertium(["-u", item.direction], item.text) }
            rows.append((item.direction, persistent, spawned))
        }
        return rows
    }

    /// `printf '%s\n' TEXT | apertium ARGUMENTS…`, trimmed; no shell.
    static func spawnApertium(_ arguments: [String], _ text: String) throws -> String {
        let run = try ToolRun(["/usr/bin/apertium"] + arguments, input: Array((text + "\n").utf8), name: "apertium", timeout: 120)
        return run.outputText.trimmingCharacters(in: .whitespacesAndNewlines)
    }
}

extension TranslationBenchmark {
    private func describe(into report: inout BenchmarkReport, count: Int) {
        report.add("\(count) everyday sentences (greetings, directions, shopping, numbers, questions), alternating "
            + "English → Spanish (`eng-spa`) and Spanish → English (`spa-eng_US`). Parley keeps one pipeline per "
            + "direction and form running in null-flush mode; the naive path spawns the `apertium` command for every "
            + "sentence, as a shell script would. Parley's figures include both pipelines of a direction (the clean "
            + "text and the marked one that finds unknown words) unless noted.")
        report.add("")
    }

    private func addLatency(to report: inout BenchmarkReport, persistent: Timings, persistentClean: Timings,
                            spawnedClean: Timings, spawnedMarked: Timings) {
        let rows: [(String, Timings)] = [
            ("Parley, persistent pipelines (clean + unknown words)", persistent),
            ("Parley, persistent clean pipeline only", persistentClean),
            ("`apertium -u DIRECTION` spawned per sentence", spawnedClean),
            ("`apertium DIRECTION` spawned per sentence", spawnedMarked),
        ]
        report.addTable(header: ["path", "median ms", "p90 ms", "median vs Parley"], rows: rows.map { name, timings in
            [name, Timings.format(timings.median), Timings.format(timings.p90), ratio(timings.median, persistent.median)]
        })
        let meets = persistent.median <= 10 && spawnedMarked.median / persistent.median >= 10
        report.add("Targets (≤ 10 ms median, ≥ 10× faster than spawning `apertium DIRECTION`): "
            + (meets ? "met" : "**not met**") + ".")
        report.add("")
    }

    private func addCold(to report: inout BenchmarkReport, _ rows: [(String, Double, Double)]) {
        report.add("Cold first sentence (a new translator: starting both pipelines, loading the dictionaries, "
            + "translating), reported apart from the figures above. `parley` pays this once per direction, "
            + "when a dialogue starts (`prepare(from:to:)`):")
        report.add("")
        report.addTable(header: ["direction", "Parley cold ms", "`apertium -u` spawned ms"], rows: rows.map { row in
            [row.0, Timings.format(row.1), Timings.format(row.2)]
        })
    }

    private func addIdentity(to report: inout BenchmarkReport, persistent: TranslationRun,
                             spawnedClean: TranslationRun, spawnedMarked: TranslationRun) {
        let clean = zip(persistent.texts, spawnedClean.texts).filter { $0 == $1 }.count
        let marked = zip(persistent.marked, spawnedMarked.texts).filter { $0 == $1 }.count
        report.add("Output identity: \(clean)/\(persistent.texts.count) clean translations equal to `apertium -u`; "
            + "\(marked)/\(persistent.texts.count) marked translations equal to `apertium`.")
    }
}
