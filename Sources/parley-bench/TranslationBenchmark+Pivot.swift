import Foundation
import Locales
import ParleyCore
import Translation

/// The cost of a translation through a pivot language (two Apertium legs)
/// next to a direct one, persistent pipelines against `apertium` spawned.
extension TranslationBenchmark {
    /// Sentences per route.
    static let pivotSentenceCount = 40

    /// Everyday French sentences for the routes that start in French.
    static let frenchSentences = [
        "Bonjour.", "Bonsoir, enchanté.", "Où est la gare ?", "Je voudrais deux billets, s'il vous plaît.",
        "Combien coûte ce livre ?", "Merci beaucoup.", "À quelle heure part le train ?", "Je cherche un hôtel près d'ici.",
        "Pouvez-vous m'aider ?", "Il fait beau aujourd'hui.",
    ]

    /// One route timed both ways.
    struct PivotRow {
        var label: String
        var route: String
        var persistent: TranslationRun
        var spawned: TranslationRun
    }

    /// Times a direct and a pivoted route from English and from French and adds their table.
    func addPivot(to report: inout BenchmarkReport, registry: LocaleRegistry) async throws {
        let tag = { (text: String) in LocaleTag(text)! }
        let english = Self.cases(count: 2 * Self.pivotSentenceCount).filter { $0.direction == "eng-spa" }.map(\.text)
        let french = (0..<Self.pivotSentenceCount).map { Self.frenchSentences[$0 % Self.frenchSentences.count] }
        let plans: [(String, LocaleTag, LocaleTag, [String])] = [
            ("English → Spanish, direct", tag("en-US"), tag("es-ES"), english),
            ("English → French, through Spanish", tag("en-US"), tag("fr-FR"), english),
            ("French → Spanish, direct", tag("fr-FR"), tag("es-ES"), french),
            ("French → English, through Spanish", tag("fr-FR"), tag("en-US"), french),
        ]
        var rows: [PivotRow] = []
        for (label, source, target, sentences) in plans {
            rows.append(try await timeRoute(label, source, target, sentences, registry: registry))
        }
        describePivot(into: &report, rows)
    }

    private func timeRoute(_ label: String, _ source: LocaleTag, _ target: LocaleTag, _ sentences: [String],
                           registry: LocaleRegistry) async throws -> PivotRow {
        let translator = ApertiumTranslator(locales: registry.catalog)
        let route = try translator.route(from: source, to: target)
        try await translator.prepare(from: source, to: target)
        var persistent: [Double] = [], persistentTexts: [String] = []
        for sentence in sentences {
            var text = ""
            persistent.append(try await measureMilliseconds {
                text = try await translator.translateMarked(sentence, from: source, to: target).rawText
            })
            persistentTexts.append(text)
        }
        await translator.shutdown()
        var spawned: [Double] = [], spawnedTexts: [String] = []
        for sentence in sentences {
            var text = sentence
            spawned.append(try measureMilliseconds {
                for leg in route.legs { text = try Self.spawnApertium(["-u", leg.name], text) }
            })
            spawnedTexts.append(text)
        }
        return PivotRow(label: label, route: route.name, persistent: TranslationRun(timings: Timings(persistent), texts: persistentTexts),
                        spawned: TranslationRun(timings: Timings(spawned), texts: spawnedTexts))
    }

    private func describePivot(into report: inout BenchmarkReport, _ rows: [PivotRow]) {
        report.add("")
        report.add("### Direct and pivoted routes")
        report.add("")
        report.add("\(Self.pivotSentenceCount) sentences per route. Without a direct pair Parley chains the persistent "
            + "pipelines of each leg (clean and marked, as in a dialogue); the naive path spawns `apertium -u` once per "
            + "leg and sentence, each reading the one before's output (`apertium -u fr-es | apertium -u spa-eng_US`, "
            + "run one after the other).")
        report.add("")
        report.addTable(header: ["route", "directions", "Parley median ms", "Parley p90 ms", "spawned median ms",
                                 "spawned p90 ms", "spawned vs Parley", "identical"], rows: rows.map { row in
            [row.label, "`\(row.route)`", Timings.format(row.persistent.timings.median), Timings.format(row.persistent.timings.p90),
             Timings.format(row.spawned.timings.median), Timings.format(row.spawned.timings.p90),
             ratio(row.spawned.timings.median, row.persistent.timings.median),
             "\(zip(row.persistent.texts, row.spawned.texts).filter { $0 == $1 }.count)/\(row.persistent.texts.count)"]
        })
    }
}
