/// One utterance decoded in one forced language, beside its decoding in
/// another: what a recognizer that hears either side of a conversation
/// returns for each side's language.
public struct LanguageHypothesis: Sendable, Hashable, Codable {
    /// The language the decoder was forced to (`en`, `es`).
    public var language: String
    /// The text in that language; empty when the decoder called the audio silent.
    public var text: String
    /// The decoder's score of `text`: its mean token log-probability (≤ 0, higher is better).
    public var decoderScore: Double
    /// The model's probability that the audio is in this language rather than the other one
    /// of the pair (the two add up to 1).
    public var languageProbability: Double

    /// Creates a hypothesis.
    public init(language: String, text: String, decoderScore: Double, languageProbability: Double) {
        self.language = language
        self.text = text
        self.decoderScore = decoderScore
        self.languageProbability = languageProbability
    }

    /// exp(mean token log-probability), 0…1, as `RecognitionResult.confidence`.
    public var confidence: Double { exp(decoderScore) }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
