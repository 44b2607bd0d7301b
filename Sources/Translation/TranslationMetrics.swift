import Foundation

/// Corpus-level translation quality scores, computed as sacreBLEU 2 computes
/// them, so Parley's figures can be compared with published ones.
///
/// ```swift
/// let hypotheses = ["¿Dónde está el hotel?"], references = ["¿Dónde está el hotel?"]
/// TranslationMetrics.chrF(hypotheses: hypotheses, references: references)  // 100
/// TranslationMetrics.bleu(hypotheses: hypotheses, references: references)  // 100
/// ```
public enum TranslationMetrics {
    /// chrF (sacreBLEU's `chrF2`): character n-grams of orders 1…6 with
    /// whitespace removed, counts summed over the corpus, precision and recall
    /// averaged over the orders both sides have, then their F-score with β = 2
    /// (recall weighs twice precision). 0…100.
    public static func chrF(hypotheses: [String], references: [String], order: Int = 6, beta: Double = 2) -> Double {
        precondition(hypotheses.count == references.count, "one reference per hypothesis")
        var statistics = [NGramStatistics](repeating: NGramStatistics(), count: order)
        for (hypothesis, reference) in zip(hypotheses, references) {
            let hypothesisCharacters = Array(hypothesis.filter { !$0.isWhitespace })
            let referenceCharacters = Array(reference.filter { !$0.isWhitespace })
            for n in 1...order {
                statistics[n - 1].add(hypothesis: ngrams(hypothesisCharacters, n), reference: ngrams(referenceCharacters, n))
            }
        }
        var precision = 0.0, recall = 0.0, effectiveOrder = 0
        for counts in statistics where counts.hypothesis > 0 && counts.reference > 0 {
            precision += Double(counts.matches) / Double(counts.hypothesis)
            recall += Double(counts.matches) / Double(counts.reference)
            effectiveOrder += 1
        }
        guard effectiveOrder > 0 else { return 0 }
        precision /= Double(effectiveOrder)
        recall /= Double(effectiveOrder)
        let factor = beta * beta
        guard precision + recall > 0 else { return 0 }
        return 100 * (1 + factor) * precision * recall / (factor * precision + recall)
    }

    /// BLEU-4 (sacreBLEU's default): `13a` tokens, clipped n-gram matches of
    /// orders 1…4 summed over the corpus, their geometric mean with the `exp`
    /// smoothing for an order without matches, times the brevity penalty
    /// exp(1 − r/c) when the hypotheses are shorter than the references. 0…100.
    public static func bleu(hypotheses: [String], references: [String], order: Int = 4) -> Double {
        precondition(hypotheses.count == references.count, "one reference per hypothesis")
        var statistics = [NGramStatistics](repeating: NGramStatistics(), count: order)
        var hypothesisLength = 0, referenceLength = 0
        for (hypothesis, reference) in zip(hypotheses, references) {
            let hypothesisTokens = tokenize13a(hypothesis), referenceTokens = tokenize13a(reference)
            hypothesisLength += hypothesisTokens.count
            referenceLength += referenceTokens.count
            for n in 1...order {
                statistics[n - 1].add(hypothesis: ngrams(hypothesisTokens, n), reference: ngrams(referenceTokens, n))
            }
        }
        guard hypothesisLength > 0 else { return 0 }
        var logSum = 0.0, smoothing = 1.0
        for counts in statistics {
            guard counts.hypothesis > 0 else { return 0 }
            if counts.matches == 0 {
                smoothing *= 2
                logSum += log(100 / (smoothing * Double(counts.hypothesis)))
            } else {
                logSum += log(100 * Double(counts.matches) / Double(counts.hypothesis))
            }
        }
        let brevityPenalty = hypothesisLength < referenceLength
            ? exp(1 - Double(referenceLength) / Double(hypothesisLength)) : 1
        return brevityPenalty * exp(logSum / Double(order))
    }

    /// sacreBLEU's `13a` tokenization (mteval-v13a): punctuation and symbols split
    /// off, periods and commas split unless between digits, a hyphen after a digit.
    public static func tokenize13a(_ line: String) -> [String] {
        var text = line.replacingOccurrences(of: "<skipped>", with: "")
            .replacingOccurrences(of: "-\n", with: "").replacingOccurrences(of: "\n", with: " ")
        if text.contains("&") {
            for (entity, character) in [("&quot;", "\""), ("&amp;", "&"), ("&lt;", "<"), ("&gt;", ">")] {
                text = text.replacingOccurrences(of: entity, with: character)
            }
        }
        text = " \(text) "
        for (pattern, template) in tokenizerRules {
            text = text.replacingOccurrences(of: pattern, with: template, options: .regularExpression)
        }
        return text.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" }).map(String.init)
    }

    /// The four regular expressions of `13a`, in order.
    private static let tokenizerRules: [(String, String)] = [
        (#"([\{-\~\[-\` -\&\(-\+\:-\@\/])"#, " $1 "),
        (#"([^0-9])([\.,])"#, "$1 $2 "),
        (#"([\.,])([^0-9])"#, " $1 $2"),
        (#"([0-9])(-)"#, "$1 $2 "),
    ]

    private static func ngrams<Element: Hashable>(_ items: [Element], _ n: Int) -> [ArraySlice<Element>: Int] {
        var counts: [ArraySlice<Element>: Int] = [:]
        guard items.count >= n else { return counts }
        for start in 0...(items.count - n) { counts[items[start..<(start + n)], default: 0] += 1 }
        return counts
    }
}

/// Summed n-gram counts of one order.
private struct NGramStatistics {
    var hypothesis = 0, reference = 0, matches = 0

    mutating func add<Key>(hypothesis hypothesisCounts: [Key: Int], reference referenceCounts: [Key: Int]) {
        hypothesis += hypothesisCounts.values.reduce(0, +)
        reference += referenceCounts.values.reduce(0, +)
        matches += hypothesisCounts.reduce(0) { $0 + min($1.value, referenceCounts[$1.key] ?? 0) }
    }
}
