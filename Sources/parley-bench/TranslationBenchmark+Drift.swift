import Foundation
import Locales
import ParleyCore
import Translation

/// Everyday sentences, many of which change the tagger (a new ambiguity class), one
/// after the other through one translator: every drifted tagger is replaced before the
/// next sentence, as in a conversation, against `apertium -u` spawned per sentence.
extension TranslationBenchmark {
    /// How many English sentences of the everyday set are translated.
    static let everydaySentenceCount = 30

    /// The first English sentences of `benchmarks/everyday-en-es.tsv`.
    static func everydaySentences() -> [String] {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { url.deleteLastPathComponent() }
        let text = (try? String(contentsOf: url.appendingPathComponent("benchmarks/everyday-en-es.tsv"), encoding: .utf8)) ?? ""
        let lines = text.split(separator: "\n").filter { !$0.hasPrefix("#") && $0.contains("\t") }
        return lines.prefix(everydaySentenceCount).map { String($0.split(separator: "\t")[0]) }
    }

    /// Times the everyday sentences both ways and adds their table.
    func addEverydayDrift(to report: inout BenchmarkReport, registry: LocaleRegistry) async throws {
        let sentences = Self.everydaySentences()
        let (english, spanish) = (LocaleTag(language: "en", region: "US"), LocaleTag(language: "es", region: "ES"))
        let translator = ApertiumTranslator(locales: registry.catalog)
        try await translator.prepare(from: english, to: spanish)
        var parley: [Double] = [], texts: [String] = []
        for sentence in sentences {
            var text = ""
            parley.append(try await measureMilliseconds {
                text = try await translator.translateMarked(sentence, from: english, to: spanish).rawText
            })
            texts.append(text)
        }
        let replacements = try await translator.taggerReplacements(from: english, to: spanish)
        await translator.shutdown()
        var spawned: [Double] = [], reference: [String] = []
        for sentence in sentences {
            var text = ""
            spawned.append(try measureMilliseconds { text = try Self.spawnApertium(["-u", "eng-spa"], sentence) })
            reference.append(text)
        }
        addEverydayTable(to: &report, parley: Timings(parley), spawned: Timings(spawned), replacements: replacements,
                         identical: zip(texts, reference).filter { $0 == $1 }.count, count: sentences.count)
    }

    private func addEverydayTable(to report: inout BenchmarkReport, parley: Timings, spawned: Timings,
                                  replacements: TaggerReplacements, identical: Int, count: Int) {
        let total = { (timings: Timings) in timings.samples.reduce(0, +) }
        let ratio = total(spawned) / total(parley)
        report.add("### Everyday sentences with tagger drift")
        report.add("")
        report.add("The first \(count) English sentences of `benchmarks/everyday-en-es.tsv`, English → Spanish, one after "
            + "the other through one translator (clean and marked pipelines, as in a dialogue). A tagger that meets a new "
            + "ambiguity class is replaced before the next sentence by one of two spare taggers started in the background; "
            + "the stages that load dictionaries keep running.")
        report.add("")
        report.addTable(header: ["path", "total ms", "median ms", "p90 ms", "total vs Parley"], rows: [
            ["Parley, persistent pipelines, drifted taggers replaced", Timings.format(total(parley)),
             Timings.format(parley.median), Timings.format(parley.p90), "1.0×"],
            ["`apertium -u eng-spa` spawned per sentence", Timings.format(total(spawned)),
             Timings.format(spawned.median), Timings.format(spawned.p90), String(format: "%.1f×", ratio)],
        ])
        let drifts = replacements.fromSpare + replacements.startedOnTheTurn
        report.add("Drifted taggers replaced: \(drifts) (\(replacements.fromSpare) by the spare, "
            + "\(replacements.startedOnTheTurn) started on the sentence's path). Output identity: \(identical)/\(count) "
            + "equal to `apertium -u`. Targets (≥ 10× faster than spawning `apertium -u` per sentence, p90 ≤ 10 ms): "
            + (ratio >= 10 && parley.p90 <= 10 ? "met" : "**not met**") + ".")
    }
}
