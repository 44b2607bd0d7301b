import Foundation
import ParleyCore
import Testing

@Suite("Language pair decision")
struct LanguagePairDecisionTests {
    typealias Evidence = LanguagePairDecision.Evidence

    @Test func theModelsLanguageProbabilityDecidesEvenScores() throws {
        let decision = try #require(LanguagePairDecision.decide(
            Evidence(text: "hola", decoderScore: -0.5, languageProbability: 0.2),
            Evidence(text: "hello", decoderScore: -0.5, languageProbability: 0.8)))
        #expect(decision.winner == 1)
        #expect(abs(decision.margin - log(0.2 / 0.8)) < 1e-9)
        #expect(abs(decision.confidence - 0.8) < 1e-9, "with nothing else, the confidence is the model's own")
    }

    @Test func aClearlyBetterDecoderScoreOutvotesABoundedLanguageProbability() throws {
        // Whisper was sure of English (0.98) for a Spanish clip whose Spanish reading scored higher.
        let decision = try #require(LanguagePairDecision.decide(
            Evidence(text: "Tommy Louton", decoderScore: -1.82, languageProbability: 0.983),
            Evidence(text: "Tome el autobús", decoderScore: -1.32, languageProbability: 0.017)))
        #expect(decision.winner == 1 && decision.confidence > 0.5 && decision.confidence < 0.8)
    }

    @Test func unknownWordsCountAgainstTheirReading() throws {
        let even = (score: -0.6, probability: 0.5)
        let decision = try #require(LanguagePairDecision.decide(
            Evidence(text: "Buenos días", decoderScore: even.score, languageProbability: even.probability, unknownWordRate: 1),
            Evidence(text: "Buenos días", decoderScore: even.score, languageProbability: even.probability, unknownWordRate: 0)))
        #expect(decision.winner == 1 && abs(decision.margin + LanguagePairDecision.Weights().unknownWords) < 1e-9)
    }

    @Test func silenceInOneLanguageGivesTheOtherOneAndInBothNothing() {
        let heard = Evidence(text: "la cuenta", decoderScore: -2, languageProbability: 0.01)
        let silent = Evidence(text: "", decoderScore: -0.1, languageProbability: 0.99)
        #expect(LanguagePairDecision.decide(silent, heard)?.winner == 1)
        #expect(LanguagePairDecision.decide(heard, silent)?.winner == 0)
        #expect(LanguagePairDecision.decide(silent, silent) == nil)
    }

    @Test func tiesGoToTheFirstLanguageTheSideWhoseTurnItIs() throws {
        let same = Evidence(text: "OK", decoderScore: -0.3, languageProbability: 0.5)
        let decision = try #require(LanguagePairDecision.decide(same, same))
        #expect(decision.winner == 0 && decision.confidence == 0.5)
    }

    @Test func theUnknownWordRateComesFromTheTranslatorsCount() {
        let hypothesis = LanguageHypothesis(language: "es", text: "¿Dónde está la estación?", decoderScore: -0.4,
                                            languageProbability: 0.9)
        #expect(Evidence(hypothesis, unknownWords: 1).unknownWordRate == 0.25)
        #expect(Evidence(hypothesis, unknownWords: nil).unknownWordRate == nil)
        #expect(LanguagePairDecision.wordCount("8 of spades, 4 of clubs.") == 6)
    }
}
