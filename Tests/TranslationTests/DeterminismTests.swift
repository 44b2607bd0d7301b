import ParleyCore
import Testing
import Translation

/// A sentence gets the same translation whatever was translated before it on
/// the same long-lived pipelines: the one `apertium -u` gives it alone.
@Suite struct DeterminismTests {
    /// English sentences whose tagging a drifted tagger changes ("near" read as an adverb).
    static let englishProbes = ["Is there a bank near the hotel?", "Is breakfast included?"]

    @Test func aSentenceAfterAQuestionWithANewAmbiguityClassIsTranslatedAsAlone() async throws {
        let translator = TranslationFixtures.privateTranslator()
        _ = try await translator.translate("Is breakfast included?", from: TranslationFixtures.english, to: TranslationFixtures.spanish)
        let after = try await translator.translate(Self.englishProbes[0], from: TranslationFixtures.english, to: TranslationFixtures.spanish)
        #expect(after.text == (try TranslationFixtures.cleanedApertium("eng-spa", Self.englishProbes[0])))
        #expect(after.text.contains("se acerca"))
        await translator.shutdown()
    }

    /// Sentences already waiting for the pipeline when the tagger drifts meet a
    /// fresh tagger too: the drifted one is set aside before the next sentence
    /// is taken, not after the sentences queued behind it.
    @Test func sentencesQueuedBehindADriftingOneAreTranslatedAsAlone() async throws {
        let translator = TranslationFixtures.privateTranslator()
        let probe = Self.englishProbes[0]
        let alone = try TranslationFixtures.cleanedApertium("eng-spa", probe)
        for _ in 0..<3 {
            let texts = try await withThrowingTaskGroup(of: (Int, String).self) { group in
                for index in 0..<9 {
                    let sentence = index % 3 == 0 ? Self.englishProbes[1] : probe
                    group.addTask {
                        (index, try await translator.translate(sentence, from: TranslationFixtures.english,
                                                               to: TranslationFixtures.spanish).text)
                    }
                }
                return try await group.reduce(into: [Int: String]()) { $0[$1.0] = $1.1 }
            }
            for (index, text) in texts where index % 3 != 0 {
                #expect(text == alone, "request \(index)")
            }
        }
        await translator.shutdown()
    }

    @Test func englishSentencesAfterAHundredOthersAreTranslatedAsAlone() async throws {
        try await expectTranslatedAsAlone(TranslationFixtures.englishSentences.prefix(8) + Self.englishProbes,
                                          after: TranslationFixtures.englishSentences, direction: "eng-spa",
                                          from: TranslationFixtures.english, to: TranslationFixtures.spanish)
    }

    @Test func spanishSentencesAfterAHundredOthersAreTranslatedAsAlone() async throws {
        try await expectTranslatedAsAlone(Array(TranslationFixtures.spanishSentences.suffix(10)),
                                          after: TranslationFixtures.spanishSentences, direction: "spa-eng_US",
                                          from: TranslationFixtures.spanish, to: TranslationFixtures.english)
    }

    private func expectTranslatedAsAlone(_ probes: [String], after history: [String], direction: String,
                                         from source: LocaleTag, to target: LocaleTag) async throws {
        #expect(history.count >= 100)
        let translator = TranslationFixtures.privateTranslator()
        for sentence in history.reversed() {
            _ = try await translator.translateMarked(sentence, from: source, to: target)
        }
        for probe in probes {
            let translation = try await translator.translateMarked(probe, from: source, to: target)
            #expect(translation.rawText == (try TranslationFixtures.apertium(direction, probe)), "\(probe)")
            #expect(translation.result.text == (try TranslationFixtures.cleanedApertium(direction, probe)), "\(probe)")
            #expect(translation.markedText == (try TranslationFixtures.apertium(direction, probe, marks: true)), "\(probe)")
        }
        await translator.shutdown()
    }
}
