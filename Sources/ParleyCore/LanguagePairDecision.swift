import Foundation

/// Which of two languages an utterance was in, decided from a
/// `LanguagePairRecognizer`'s two hypotheses and cheap text evidence.
///
/// The evidence adds up on one log-odds scale, in favour of the first
/// language when positive:
/// - the model's own language probability, `log(p₁ / p₂)`, bounded so that it
///   cannot outvote clear text evidence on its own;
/// - the decoders' scores: forced into the wrong language Whisper tends to
///   translate or garble, with a lower mean token log-probability;
/// - the translator's unknown-word rate of each hypothesis through its own
///   direction: a hypothesis in the wrong language is full of words the
///   dictionary of its language does not have;
/// - how much of the speech each reading covers: forced into the wrong language
///   Whisper may stop early or spell letters ("One to two" for a Spanish question
///   of ten syllables, "M.M.C." for "merci"). A reading with fewer than half the
///   other's syllables (`shortReadingShare`) missed part of what was said: its
///   mean token log-probability, taken over the part it read, is no measure of the
///   speech, so the decoder scores do not count, and the reading that covers the
///   speech gets `Weights.coverage`. Readings with digits (whose syllables the
///   text does not tell) and a longer reading that repeats itself (a decoding
///   loop) leave the scores as they are.
///
/// `confidence` is the logistic of that margin: 0.5 is a coin toss.
public struct LanguagePairDecision: Sendable, Hashable {
    /// What is known of one hypothesis.
    public struct Evidence: Sendable, Hashable {
        /// The hypothesis' text (empty when the decoder heard silence in that language).
        public var text: String
        /// Mean token log-probability of the text.
        public var decoderScore: Double
        /// The model's probability of this language against the other one.
        public var languageProbability: Double
        /// The share of the text's words its translator did not know (0…1); nil when unknown.
        public var unknownWordRate: Double?

        /// Creates evidence.
        public init(text: String, decoderScore: Double, languageProbability: Double, unknownWordRate: Double? = nil) {
            self.text = text
            self.decoderScore = decoderScore
            self.languageProbability = languageProbability
            self.unknownWordRate = unknownWordRate
        }

        /// Evidence from a hypothesis and how many of its words a translator did not know.
        public init(_ hypothesis: LanguageHypothesis, unknownWords: Int?) {
            let words = LanguagePairDecision.wordCount(hypothesis.text)
            self.init(text: hypothesis.text, decoderScore: hypothesis.decoderScore,
                      languageProbability: hypothesis.languageProbability,
                      unknownWordRate: unknownWords.map { words == 0 ? 0 : min(1, Double($0) / Double(words)) })
        }
    }

    /// How the evidence is weighed: the language probability's say is bounded, so the decoder
    /// scores can overrule a model that is sure of the wrong language. The defaults lie inside
    /// the range that puts every clip of `parley-bench sides` on its side (benchmarks/sides.md).
    public struct Weights: Sendable, Hashable {
        /// Largest say the language probability has, in log-odds.
        public var languageBound = 6.0
        /// Log-odds per unit of decoder-score difference.
        public var decoderScore = 10.0
        /// Log-odds per unit of unknown-word-rate difference.
        public var unknownWords = 2.0
        /// Log-odds for the reading that covers the speech where the other covers less than half
        /// of it (`shortReadingShare`); 0 leaves the decoder scores to count there as well.
        public var coverage = 2.0

        /// The weights Parley uses (see docs/dialogue.md, "Hands-free turns").
        public init() {}
    }

    /// 0 for the first language, 1 for the second.
    public var winner: Int
    /// How sure the decision is, 0.5…1.
    public var confidence: Double
    /// The log-odds in favour of the first language.
    public var margin: Double
    /// Both readings are the same short words, words of both languages ("no", "ok", "5"): the
    /// language tells nothing, and the first language, the one asked first (the side the turn
    /// order expects), has it.
    public var sameWords = false

    /// Readings of at most this many words that are the same letters in both languages
    /// (case, accents and punctuation aside), and that the translators know as well in one
    /// language as in the other, have no language.
    public static let sameWordsLimit = 2

    /// Decides between `first` and `second`; nil when both are empty.
    public static func decide(_ first: Evidence, _ second: Evidence, weights: Weights = Weights()) -> LanguagePairDecision? {
        switch (first.text.isEmpty, second.text.isEmpty) {
        case (true, true): return nil
        case (false, true): return LanguagePairDecision(margin: weights.languageBound)
        case (true, false): return LanguagePairDecision(margin: -weights.languageBound)
        case (false, false):
            if wordCount(first.text) <= sameWordsLimit, folded(first.text) == folded(second.text),
               first.unknownWordRate == second.unknownWordRate {
                var decision = LanguagePairDecision(margin: 0)
                decision.sameWords = true
                return decision
            }
            return LanguagePairDecision(margin: margin(first, second, weights))
        }
    }

    /// `text`'s words in lower case without accents, one space apart.
    static func folded(_ text: String) -> String {
        text.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil)
            .split { !$0.isLetter && !$0.isNumber }.joined(separator: " ")
    }

    /// The decision for `margin` log-odds in favour of the first language (ties go to it).
    public init(margin: Double) {
        self.margin = margin
        winner = margin >= 0 ? 0 : 1
        confidence = 1 / (1 + exp(-abs(margin)))
    }

    static func margin(_ first: Evidence, _ second: Evidence, _ weights: Weights) -> Double {
        let tiny = 1e-9
        let odds = log(max(first.languageProbability, tiny) / max(second.languageProbability, tiny))
        var margin = min(max(odds, -weights.languageBound), weights.languageBound)
        let covering = weights.coverage == 0 ? 0 : coveringReading(first.text, second.text)
        if covering == 0 {
            margin += weights.decoderScore * (first.decoderScore - second.decoderScore)
        } else {
            margin += weights.coverage * Double(covering)
        }
        if let one = first.unknownWordRate, let two = second.unknownWordRate {
            margin += weights.unknownWords * (two - one)
        }
        return margin
    }

    /// A reading with fewer than this share of the other reading's syllables missed part of the speech.
    public static let shortReadingShare = 0.5

    /// 1 when `first` covers the speech and `second` has fewer than `shortReadingShare` of its
    /// syllables, -1 the other way round, 0 when neither (or when digits or a longer reading
    /// that repeats itself leave it untold).
    static func coveringReading(_ first: String, _ second: String) -> Int {
        guard let one = syllables(first), let two = syllables(second), max(one, two) > 0,
              Double(min(one, two)) < shortReadingShare * Double(max(one, two)) else { return 0 }
        guard !repeatsItself(one > two ? first : second) else { return 0 }
        return one > two ? 1 : -1
    }

    /// The syllables of `text`, as its runs of vowels (y among them, accents aside); nil where it
    /// has digits, whose spoken length the text does not tell.
    public static func syllables(_ text: String) -> Int? {
        guard !text.contains(where: \.isNumber) else { return nil }
        var count = 0, inVowel = false
        for character in text.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil) {
            let vowel = "aeiouyæœ".contains(character)
            if vowel, !inVowel { count += 1 }
            inVowel = vowel
        }
        return count
    }

    /// Whether `text` is a decoding loop: six words or more, fewer than half of them different.
    public static func repeatsItself(_ text: String) -> Bool {
        let words = folded(text).split(separator: " ")
        return words.count >= 6 && Set(words).count * 2 < words.count
    }

    /// Words in `text`: runs of letters or digits.
    public static func wordCount(_ text: String) -> Int {
        text.split { !$0.isLetter && !$0.isNumber }.count
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
