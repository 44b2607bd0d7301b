import Foundation
import Testing
import Translation

/// chrF and BLEU on cases small enough to count by hand.
@Suite struct TranslationMetricsTests {
    @Test func identicalTextScoresAHundred() {
        let text = ["¿Dónde está la estación de tren?", "Muchas gracias."]
        #expect(abs(TranslationMetrics.chrF(hypotheses: text, references: text) - 100) < 1e-9)
        #expect(abs(TranslationMetrics.bleu(hypotheses: text, references: text) - 100) < 1e-9)
    }

    /// "ab" against "ac": unigrams P = R = 1/2, bigrams P = R = 0, no longer n-grams;
    /// averaged P = R = 1/4, so F₂ = 5·¼·¼ / (4·¼ + ¼) = 0.25.
    @Test func chrFAveragesPrecisionAndRecallOverTheOrdersPresent() {
        #expect(abs(TranslationMetrics.chrF(hypotheses: ["ab"], references: ["ac"]) - 25) < 1e-9)
    }

    /// "a" against "ab": P = 1, R = 1/2 (only unigrams on both sides); F₂ = 5·½ / 4.5.
    @Test func chrFWeighsRecallTwiceAsMuchAsPrecision() {
        #expect(abs(TranslationMetrics.chrF(hypotheses: ["a"], references: ["ab"]) - 100 * 2.5 / 4.5) < 1e-9)
        // "ab" against "a": P = ½, R = 1; F₂ = 5·½ / (4·½ + 1) = 2.5 / 3.
        #expect(abs(TranslationMetrics.chrF(hypotheses: ["ab"], references: ["a"]) - 100 * 2.5 / 3) < 1e-9)
    }

    @Test func chrFIgnoresWhitespace() {
        #expect(abs(TranslationMetrics.chrF(hypotheses: ["a b"], references: ["ab"]) - 100) < 1e-9)
    }

    /// Every n-gram matches but 4 tokens stand for 6: BP = exp(1 − 6/4).
    @Test func bleuAppliesTheBrevityPenalty() {
        let score = TranslationMetrics.bleu(hypotheses: ["the cat sat on"], references: ["the cat sat on the mat"])
        #expect(abs(score - 100 * exp(-0.5)) < 1e-9)
    }

    /// "a b c d" against "a b d c": p₁ = 4/4, p₂ = 1/3, no trigram or 4-gram match, so
    /// the exp smoothing gives 1/(2·2) and 1/(4·1): BLEU = (1 · ⅓ · ¼ · ¼)^¼.
    @Test func bleuSmoothsOrdersWithoutMatches() {
        let score = TranslationMetrics.bleu(hypotheses: ["a b c d"], references: ["a b d c"])
        #expect(abs(score - 100 * pow(1.0 / 3 / 16, 0.25)) < 1e-9)
    }

    @Test func bleuCountsClippedMatchesOverTheWholeCorpus() {
        // "the the the the" against "the cat": unigram matches clipped to 1 of 4, no bigram match.
        let clipped = TranslationMetrics.bleu(hypotheses: ["the the the the"], references: ["the cat on it"])
        #expect(abs(clipped - 100 * pow(0.25 * (1.0 / (2 * 3)) * (1.0 / (4 * 2)) * (1.0 / (8 * 1)), 0.25)) < 1e-9)
    }

    @Test func tokenization13aSplitsPunctuationButNotNumbersOrInvertedMarks() {
        #expect(TranslationMetrics.tokenize13a("Hello, world! 3.5 apples-2-3")
            == ["Hello", ",", "world", "!", "3.5", "apples-2", "-", "3"])
        #expect(TranslationMetrics.tokenize13a("¿Dónde está?") == ["¿Dónde", "está", "?"])
        #expect(TranslationMetrics.tokenize13a("He said \"no\" (twice).") == ["He", "said", "\"", "no", "\"", "(", "twice", ")", "."])
    }
}
