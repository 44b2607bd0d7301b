import ArgumentParser
import Foundation
import Locales
import ParleyCore
import Translation

/// `parley-bench quality`: chrF and BLEU of `apertium -u` and of Parley (raw
/// and cleaned up) against human translations of everyday sentences.
struct QualityBenchmark: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "quality",
        abstract: "chrF and BLEU against human translations, both directions.")

    @Option(help: "The tab-separated test set: English, then Spanish.")
    var testSet = "benchmarks/everyday-en-es.tsv"

    /// One direction's test: sources, references, and the Apertium direction.
    struct Direction {
        var name: String
        var source: LocaleTag
        var target: LocaleTag
        var sources: [String]
        var references: [String]
    }

    /// One system's output for one direction.
    struct Row {
        var direction: String
        var system: String
        var hypotheses: [String]
        var references: [String]
    }

    func run() async throws {
        let registry = try LocaleRegistry.load(from: [DataDirectories.sourceTreeDataDirectory])
        let cleanup = try TranslationCleanup.load(from: [DataDirectories.sourceTreeDataDirectory])
        let translator = ApertiumTranslator(locales: registry.catalog,
                                            configuration: .init(reportsUnknownWords: false, cleanup: cleanup))
        var rows: [Row] = [], identical: [String] = []
        for direction in try directions() {
            let spawned = try direction.sources.map { try TranslationBenchmark.spawnApertium(["-u", direction.name], $0) }
            var raw: [String] = [], cleaned: [String] = []
            for sentence in direction.sources {
                let translation = try await translator.translateMarked(sentence, from: direction.source, to: direction.target)
                raw.append(translation.rawText)
                cleaned.append(translation.result.text)
            }
            rows += [("`apertium -u` spawned per sentence", spawned), ("Parley raw", raw), ("Parley cleaned up", cleaned)]
                .map { Row(direction: direction.name, system: $0.0, hypotheses: $0.1, references: direction.references) }
            identical.append("\(direction.name): \(zip(raw, spawned).filter { $0 == $1 }.count)/\(raw.count)")
        }
        await translator.shutdown()
        try report(rows, identical: identical).write()
    }

    /// English → Spanish and Spanish → English over the same pairs.
    private func directions() throws -> [Direction] {
        let path = testSet
        let pairs = try DataFile.rows(of: DataFile.read(path)).map { row in
            guard row.fields.count == 2, !row.fields[0].isEmpty, !row.fields[1].isEmpty else {
                throw DataFileError(path: path, line: row.line, message: "expected an English sentence and its Spanish translation")
            }
            return (row.fields[0], row.fields[1])
        }
        let english = LocaleTag(language: "en", region: "US"), spanish = LocaleTag(language: "es", region: "ES")
        return [Direction(name: "eng-spa", source: english, target: spanish, sources: pairs.map(\.0), references: pairs.map(\.1)),
                Direction(name: "spa-eng_US", source: spanish, target: english, sources: pairs.map(\.1), references: pairs.map(\.0))]
    }

    private func report(_ rows: [Row], identical: [String]) -> BenchmarkReport {
        var report = BenchmarkReport(area: "quality", title: "Translation quality (chrF, BLEU)",
                                     command: "scripts/with-test-server.sh scripts/bench.sh quality")
        report.add("\(rows.first?.hypotheses.count ?? 0) everyday sentences from `\(testSet)` with human translations, "
            + "used in both directions (one reference each). chrF is sacreBLEU's chrF2 (character 6-grams, β = 2); "
            + "BLEU is sacreBLEU's corpus BLEU-4 with the 13a tokenizer and the brevity penalty; both computed by "
            + "`TranslationMetrics` and checked against sacreBLEU 2.6 on hand-counted cases. \"Cleaned up\" is Parley's "
            + "text after `translation-cleanup.tsv` (Spanish ¿ ¡, double spaces, a capital first letter).")
        report.add("")
        report.addTable(header: ["direction", "system", "chrF", "BLEU"], rows: rows.map { row in
            [row.direction, row.system,
             String(format: "%.1f", TranslationMetrics.chrF(hypotheses: row.hypotheses, references: row.references)),
             String(format: "%.1f", TranslationMetrics.bleu(hypotheses: row.hypotheses, references: row.references))]
        })
        report.add("Parley raw identical to `apertium -u`: " + identical.joined(separator: ", ") + ".")
        return report
    }
}
