import ArgumentParser
import Foundation
import Locales
import ParleyCore
import Translation

/// `parley-bench glossary`: what a glossary of 1,000 terms costs per sentence,
/// against the same translator with an empty glossary and with none at all.
struct GlossaryBenchmark: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "glossary",
        abstract: "Translation latency with a 1,000-term glossary vs none.")

    @Option(help: "How many sentences (half English → Spanish, half Spanish → English).")
    var sentences = 200

    @Option(help: "How many terms per language pair.")
    var terms = 1_000

    func run() async throws {
        let registry = try LocaleRegistry.load(from: [DataDirectories.sourceTreeDataDirectory])
        let cases = TranslationBenchmark.cases(count: sentences)
        let apertium = ApertiumTranslator(locales: registry.catalog)
        for item in cases.prefix(2) { try await apertium.prepare(from: item.source, to: item.target) }
        let (store, directory) = try Self.glossaries(cases: cases, terms: terms)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let empty = GlossaryStore(directory: directory + "/empty")
        // One pass first, so every configuration runs on warm pipelines and a loaded glossary.
        _ = try await time(GlossaryTranslator(wrapping: apertium, store: store), cases)
        let plain = try await time(nil, cases, apertium: apertium)
        let none = try await time(GlossaryTranslator(wrapping: apertium, store: empty), cases)
        let full = try await time(GlossaryTranslator(wrapping: apertium, store: store), cases)
        await apertium.shutdown()
        let matching = try Self.matchingCost(cases: cases, store: store)
        report(plain: plain.0, none: none.0, full: full.0, applied: full.1, matching: matching, count: cases.count)
    }

    /// Times every case through `translator` (or `apertium` alone); returns the timings and how many sentences used an entry.
    private func time(_ translator: GlossaryTranslator?, _ cases: [TranslationBenchmark.Case],
                      apertium: ApertiumTranslator? = nil) async throws -> (Timings, Int) {
        var samples: [Double] = [], applied = 0
        for item in cases {
            samples.append(try await measureMilliseconds {
                if let translator {
                    let result = try await translator.translateWithGlossary(item.text, from: item.source, to: item.target)
                    if !result.applied.isEmpty { applied += 1 }
                } else {
                    _ = try await apertium?.translateMarked(item.text, from: item.source, to: item.target)
                }
            })
        }
        return (Timings(samples), applied)
    }

    /// Glossaries of `terms` entries for en→es and es→en: made-up terms, plus a word of every tenth sentence, so some sentences use one.
    static func glossaries(cases: [TranslationBenchmark.Case], terms: Int) throws -> (GlossaryStore, String) {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("parley-bench-glossary-\(UUID().uuidString)").path
        let store = GlossaryStore(directory: directory)
        for (source, target) in [("en", "es"), ("es", "en")] {
            let chosen = cases.enumerated().filter { $0.offset.isMultiple(of: 10) && $0.element.source.language == source }
            let words: [String] = chosen.compactMap { longestWord(of: $0.element.text) }
            let real: [String] = Array(Array(Set(words)).sorted().prefix(terms))
            let made: [String] = (0..<(terms - real.count)).map { "glossary term \($0)" }
            try store.add((real + made).map { GlossaryEntry(kind: .term, source: $0, target: "«\($0)»") }, from: source, to: target)
        }
        return (store, directory)
    }

    /// The longest word of `text`, lower-cased.
    private static func longestWord(of text: String) -> String? {
        let words: [Substring] = text.split { !$0.isLetter }
        return words.max { $0.count < $1.count }.map { $0.lowercased() }
    }

    /// Finding the terms alone (no translation), microseconds per sentence.
    static func matchingCost(cases: [TranslationBenchmark.Case], store: GlossaryStore) throws -> Timings {
        let matcher = GlossaryMatcher(entries: try store.load(from: "en", to: "es").entries)
        return Timings(cases.map { item in
            measureMilliseconds { _ = matcher.terms(in: item.text) } * 1_000
        })
    }

    private func report(plain: Timings, none: Timings, full: Timings, applied: Int, matching: Timings, count: Int) {
        var report = BenchmarkReport(area: "glossary", title: "Translation with a glossary",
                                     command: "scripts/with-test-server.sh scripts/bench.sh glossary")
        report.add("\(count) everyday sentences, alternating English → Spanish and Spanish → English, through the same "
            + "warm Apertium pipelines (clean + unknown words): alone, wrapped by `GlossaryTranslator` with an empty "
            + "glossary, and with \(terms) terms per language pair (made-up terms plus one word of every tenth "
            + "sentence, so \(applied) of the \(count) sentences had a term replaced by a placeholder and put back). "
            + "The p90 is as high with no glossary as with one (probably the sentences that wait for Apertium's tagger "
            + "to be replaced: docs/translation.md, \"Deterministic translation\"); the medians compare the glossary's own cost.")
        report.add("")
        let rows: [(String, Timings)] = [("Apertium alone", plain), ("glossary, 0 terms", none), ("glossary, \(terms) terms", full)]
        report.addTable(header: ["path", "median ms", "p90 ms", "median vs Apertium alone"], rows: rows.map { name, timings in
            [name, Timings.format(timings.median), Timings.format(timings.p90), ratio(timings.median, plain.median)]
        })
        report.add("Finding the terms of a sentence among \(terms): median \(Timings.format(matching.median)) µs, "
            + "p90 \(Timings.format(matching.p90)) µs (indexed by first word).")
        report.add("")
        report.add("Target (≤ 10 ms per sentence with \(terms) terms, median): " + (full.median <= 10 ? "met" : "**not met**") + ".")
        try? report.write()
    }
}
