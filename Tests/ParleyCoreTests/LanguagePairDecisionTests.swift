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
            Evidence(text: "Buenos días, señora", decoderScore: even.score, languageProbability: even.probability, unknownWordRate: 1),
            Evidence(text: "Buenos días, señora", decoderScore: even.score, languageProbability: even.probability, unknownWordRate: 0)))
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

    @Test("the same one or two words in both languages have no language: the turn order's side (asked first) has them")
    func theSameShortWordsGoByTheTurnOrder() throws {
        // The model is sure of the second language: for "no" it says nothing of who spoke.
        let no = try #require(LanguagePairDecision.decide(
            Evidence(text: "No.", decoderScore: -0.9, languageProbability: 0.01, unknownWordRate: 0),
            Evidence(text: "no", decoderScore: -0.2, languageProbability: 0.99, unknownWordRate: 0)))
        #expect(no.sameWords && no.winner == 0 && no.confidence == 0.5)
        let si = try #require(LanguagePairDecision.decide(Evidence(text: "Sí", decoderScore: -0.5, languageProbability: 0.2),
                                                          Evidence(text: "si!", decoderScore: -0.4, languageProbability: 0.8)))
        #expect(si.sameWords, "case, accents and punctuation aside")
        // Different words, or the same longer sentence, are decided by the evidence as before.
        let thanks = try #require(LanguagePairDecision.decide(Evidence(text: "Gràcies", decoderScore: -0.5, languageProbability: 0.1),
                                                              Evidence(text: "Gracias", decoderScore: -0.4, languageProbability: 0.9)))
        #expect(!thanks.sameWords && thanks.winner == 1)
        let greeting = try #require(LanguagePairDecision.decide(
            Evidence(text: "Buenos días.", decoderScore: -0.9, languageProbability: 0.2, unknownWordRate: 1),
            Evidence(text: "Buenos días.", decoderScore: -1.0, languageProbability: 0.8, unknownWordRate: 0)))
        #expect(!greeting.sameWords && greeting.winner == 1, "words one translator does not know are not words of both languages")
        let sentence = "Go somewhere and do something."
        let long = try #require(LanguagePairDecision.decide(Evidence(text: sentence, decoderScore: -0.3, languageProbability: 0.01),
                                                            Evidence(text: sentence, decoderScore: -0.3, languageProbability: 0.99)))
        #expect(!long.sameWords && long.winner == 1)
    }

    @Test func theUnknownWordRateComesFromTheTranslatorsCount() {
        let hypothesis = LanguageHypothesis(language: "es", text: "¿Dónde está la estación?", decoderScore: -0.4,
                                            languageProbability: 0.9)
        #expect(Evidence(hypothesis, unknownWords: 1).unknownWordRate == 0.25)
        #expect(Evidence(hypothesis, unknownWords: nil).unknownWordRate == nil)
        #expect(LanguagePairDecision.wordCount("8 of spades, 4 of clubs.") == 6)
    }
}
