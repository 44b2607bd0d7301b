import ParleyCore
import Testing
import Translation

/// Everyday sentences through the persistent pipelines give exactly what the
/// `apertium` command gives, spawned anew for each sentence: the raw text
/// equals it, and the text equals it after the same clean-up.
@Suite struct EverydaySentenceTests {
    @Test func theCorporaAreLargeEnough() {
        #expect(TranslationFixtures.englishSentences.count >= 50)
        #expect(TranslationFixtures.spanishSentences.count >= 50)
    }

    @Test(arguments: TranslationFixtures.englishSentences)
    func englishToSpanishEqualsTheApertiumCommand(_ sentence: String) async throws {
        let translation = try await TranslationFixtures.translator.translateMarked(
            sentence, from: TranslationFixtures.english, to: TranslationFixtures.spanish)
        #expect(translation.direction == "eng-spa")
        #expect(translation.rawText == (try TranslationFixtures.apertium("eng-spa", sentence)))
        #expect(translation.result.text == (try TranslationFixtures.cleanedApertium("eng-spa", sentence)))
        #expect(translation.markedText == (try TranslationFixtures.apertium("eng-spa", sentence, marks: true)))
        #expect(!translation.result.text.isEmpty)
    }

    @Test(arguments: TranslationFixtures.spanishSentences)
    func spanishToEnglishEqualsTheApertiumCommand(_ sentence: String) async throws {
        let translation = try await TranslationFixtures.translator.translateMarked(
            sentence, from: TranslationFixtures.spanish, to: TranslationFixtures.english)
        #expect(translation.direction == "spa-eng_US")
        #expect(translation.rawText == (try TranslationFixtures.apertium("spa-eng_US", sentence)))
        #expect(translation.result.text == (try TranslationFixtures.cleanedApertium("spa-eng_US", sentence)))
        #expect(translation.markedText == (try TranslationFixtures.apertium("spa-eng_US", sentence, marks: true)))
        #expect(!translation.result.text.isEmpty)
    }
}
