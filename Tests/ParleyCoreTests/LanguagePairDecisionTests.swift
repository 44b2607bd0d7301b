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

    @Test("a reading with fewer than half the other's syllables missed part of the speech: the decoder scores do not count, and the reading that covers it wins")
    func aReadingThatMissedPartOfTheSpeech() throws {
        // Whisper base on eSpeak NG's "¿cuánto cuestan estas manzanas?", forced into English
        // (benchmarks/pairs.md): three words with a better mean log-probability than the Spanish ten syllables.
        let spanish = Evidence(text: "¿Cuánto tuézta de esas manzadas?", decoderScore: -1.237, languageProbability: 0.8904,
                               unknownWordRate: 0.4)
        let english = Evidence(text: "One to two", decoderScore: -0.674, languageProbability: 0.1096, unknownWordRate: 0)
        #expect(LanguagePairDecision.syllables(spanish.text) == 10 && LanguagePairDecision.syllables(english.text) == 4)
        let weights = LanguagePairDecision.Weights()
        let decision = try #require(LanguagePairDecision.decide(spanish, english))
        let expected = log(0.8904 / 0.1096) + weights.coverage + weights.unknownWords * (0 - 0.4)
        #expect(decision.winner == 0 && abs(decision.margin - expected) < 1e-9)
        // Asked the other way round, the same reading wins.
        #expect(LanguagePairDecision.decide(english, spanish)?.winner == 1)
        // Without the cue the decoder scores would give it to English.
        var scoresCount = weights
        scoresCount.coverage = 0
        #expect(LanguagePairDecision.decide(spanish, english, weights: scoresCount)?.winner == 1)
        // Letters spelled out have no syllables: "merci" read in English as "M.M.C.".
        let merci = try #require(LanguagePairDecision.decide(
            Evidence(text: "M.M.C.", decoderScore: -1.059, languageProbability: 0.5195, unknownWordRate: 0),
            Evidence(text: "Merci", decoderScore: -1.265, languageProbability: 0.4805, unknownWordRate: 0)))
        #expect(merci.winner == 1)
    }

    @Test("digits, a longer reading that repeats itself, and readings of like length leave the decoder scores to count")
    func theScoresCountWhereTheLengthTellsNothing() throws {
        let weights = LanguagePairDecision.Weights()
        func margin(_ first: Evidence, _ second: Evidence) -> Double {
            log(first.languageProbability / second.languageProbability)
                + weights.decoderScore * (first.decoderScore - second.decoderScore)
        }
        // "1.2.3.4." is as long as "uno, dos, tres, cuatro": its text does not tell.
        let digits = Evidence(text: "1.2.3.4.", decoderScore: -1.11, languageProbability: 0.5)
        let words = Evidence(text: "One to two to two to four dollars.", decoderScore: -1.55, languageProbability: 0.5)
        #expect(LanguagePairDecision.syllables(digits.text) == nil)
        #expect(abs(try #require(LanguagePairDecision.decide(digits, words)).margin - margin(digits, words)) < 1e-9)
        // A decoding loop is long without covering more of the speech.
        let loop = Evidence(text: "Me he ido a mí, me he ido a mí, me he ido a mí, me he", decoderScore: -0.4, languageProbability: 0.5)
        let short = Evidence(text: "A minha irmã", decoderScore: -0.9, languageProbability: 0.5)
        #expect(LanguagePairDecision.repeatsItself(loop.text) && !LanguagePairDecision.repeatsItself(words.text))
        #expect(abs(try #require(LanguagePairDecision.decide(loop, short)).margin - margin(loop, short)) < 1e-9)
        // Half the syllables or more: a translation is often shorter than the speech it translates.
        let translated = Evidence(text: "I do not understand what you say.", decoderScore: -0.72, languageProbability: 0.0333)
        let heard = Evidence(text: "no entiendo lo que mide.", decoderScore: -0.50, languageProbability: 0.9667)
        #expect(abs(try #require(LanguagePairDecision.decide(translated, heard)).margin - margin(translated, heard)) < 1e-9)
    }

    @Test func theUnknownWordRateComesFromTheTranslatorsCount() {
        let hypothesis = LanguageHypothesis(language: "es", text: "¿Dónde está la estación?", decoderScore: -0.4,
                                            languageProbability: 0.9)
        #expect(Evidence(hypothesis, unknownWords: 1).unknownWordRate == 0.25)
        #expect(Evidence(hypothesis, unknownWords: nil).unknownWordRate == nil)
        #expect(LanguagePairDecision.wordCount("8 of spades, 4 of clubs.") == 6)
    }
}
