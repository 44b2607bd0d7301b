import Foundation
import ParleyCore
import Testing
import Translation

/// A translation with no direct pair goes through Spanish: its raw text is the
/// two `apertium -u` commands chained, its text that after the target's
/// clean-up, and it says which languages it went through.
@Suite(.serialized) struct PivotTranslationTests {
    struct Case: Sendable, CustomStringConvertible {
        var source: LocaleTag, target: LocaleTag
        var legs: [String], route: [String]
        var sentences: [String]
        var description: String { "\(source)→\(target)" }
    }

    static let french = LocaleTag(language: "fr", region: "FR")
    static let english = LocaleTag(language: "en", region: "US")
    static let cases = [
        Case(source: french, target: english, legs: ["fr-es", "spa-eng_US"], route: ["fr", "es", "en"],
             sentences: ["Bonjour, je voudrais un café.", "Où est la gare ?", "Combien coûte le billet ?"]),
        Case(source: english, target: french, legs: ["eng-spa", "es-fr"], route: ["en", "es", "fr"],
             sentences: ["Good morning.", "Where is the train station?", "How much is the ticket?"]),
        Case(source: english, target: LocaleTag(language: "pt", region: "PT"), legs: ["eng-spa", "es-pt"], route: ["en", "es", "pt"],
             sentences: ["Thank you very much.", "Is there a bank near the hotel?"]),
        Case(source: LocaleTag(language: "it", region: "IT"), target: english, legs: ["ita-spa", "spa-eng_US"], route: ["it", "es", "en"],
             sentences: ["Buongiorno.", "Dov'è la stazione dei treni?"]),
        Case(source: LocaleTag(language: "ca", region: "ES"), target: french, legs: ["cat-spa", "es-fr"], route: ["ca", "es", "fr"],
             sentences: ["On és l'estació de tren?"]),
    ]

    @Test(arguments: cases)
    func aPivotedTranslationIsTheTwoApertiumCommandsChained(_ pivot: Case) async throws {
        let translator = TranslationFixtures.translator
        let route = try translator.route(from: pivot.source, to: pivot.target)
        #expect(route.legs.map(\.name) == pivot.legs)
        for sentence in pivot.sentences {
            let translation = try await translator.translateMarked(sentence, from: pivot.source, to: pivot.target)
            let chained = try TranslationFixtures.apertium(pivot.legs[1], try TranslationFixtures.apertium(pivot.legs[0], sentence))
            #expect(translation.rawText == chained, "\(sentence)")
            #expect(translation.result.text == TranslationFixtures.cleanup.apply(to: chained, language: pivot.target.language).text)
            #expect(translation.result.route == pivot.route && translation.result.pivots == ["es"])
            #expect(translation.direction == pivot.legs.joined(separator: "+"))
            #expect(translation.legs.map(\.direction) == pivot.legs)
            #expect(translation.legs[1].result.source == translation.legs[0].rawText, "the second leg reads the first's raw text")
        }
    }

    @Test func aDirectTranslationIsNotMarkedPivoted() async throws {
        let translation = try await TranslationFixtures.translator.translateMarked(
            "Good morning.", from: TranslationFixtures.english, to: TranslationFixtures.spanish)
        #expect(translation.result.route.isEmpty && translation.legs.isEmpty && translation.direction == "eng-spa")
    }

    @Test func anUnknownWordIsReportedOnceThoughEveryLegMissesIt() async throws {
        let translation = try await TranslationFixtures.translator.translateMarked(
            "Je voudrais un xyzzy.", from: Self.french, to: Self.english)
        #expect(translation.legs.map { $0.unknownWords.map(\.word) } == [["xyzzy"], ["xyzzy"]])
        #expect(translation.result.unknownWords == ["xyzzy"])
        #expect(translation.result.text.contains("xyzzy") && !translation.result.text.contains("*"))
    }

    @Test func theSpanishCleanupTidiesOnlyASpanishTarget() async throws {
        // The Spanish between the legs stays exactly as Apertium printed it (no ¿ added); French has no rules.
        let translation = try await TranslationFixtures.translator.translateMarked(
            "Where is the train station?", from: Self.english, to: Self.french)
        #expect(translation.legs[0].rawText == (try TranslationFixtures.apertium("eng-spa", "Where is the train station?")))
        #expect(!translation.legs[0].rawText.contains("¿"))
        #expect(translation.result.text == translation.rawText)
    }

    @Test func bothLegsStartAndStopWithTheDirection() async throws {
        let translator = TranslationFixtures.privateTranslator()
        try await translator.prepare(from: Self.french, to: Self.english)
        let groups = try await translator.processGroups(from: Self.french, to: Self.english)
        #expect(groups.count == 12, "a clean and a marked pipeline for each of the two legs, each in three processes around its tagger")
        #expect(await translator.canTranslate(from: Self.french, to: Self.english))
        await translator.shutdown()
    }
}
