import Foundation
import Locales
import ParleyCore
import Testing
import TestSupport
@testable import Translation

/// Glossaries and the phrasebook applied around the real Apertium pipelines,
/// every expectation measured against the `apertium` command.
@Suite struct GlossaryTranslationTests {
    typealias Fixtures = TranslationFixtures

    /// A glossary directory of its own with `entries` for `from` → `to`.
    static func store(_ entries: [GlossaryEntry], from: String = "en", to: String = "es") throws -> GlossaryStore {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("parley-glossary-\(UUID().uuidString)").path
        let store = GlossaryStore(directory: directory)
        if !entries.isEmpty { try store.add(entries, from: from, to: to) }
        return store
    }

    static func translator(_ store: GlossaryStore) -> GlossaryTranslator {
        GlossaryTranslator(wrapping: Fixtures.translator, store: store)
    }

    static let station = GlossaryEntry(kind: .term, source: "train station", target: "estación de tren")

    @Test func aTermIsTranslatedAsGivenWhereApertiumTranslatesItOtherwise() async throws {
        let sentence = "Where is the train station?"
        let plain = try Fixtures.apertium("eng-spa", sentence)
        #expect(!plain.contains("estación de tren"), "apertium -u already says it: \(plain)")
        let result = try await Self.translator(try Self.store([Self.station]))
            .translateWithGlossary(sentence, from: Fixtures.english, to: Fixtures.spanish)
        #expect(result.translation.result.text.contains("estación de tren"))
        #expect(result.applied == [Self.station])
        #expect(result.translation.result.glossaryEntries == ["train station → estación de tren"])
    }

    @Test func theRestOfTheSentenceStaysApertiums() async throws {
        let sentence = "I live near the train station with my sister."
        let protection = GlossaryProtection(text: sentence, matches: GlossaryMatcher(entries: [Self.station]).terms(in: sentence))
        let placeholder = try #require(protection.protectedText.split(separator: " ").first { $0.hasPrefix("pqzxglo") })
        // The reference: the command's translation of the protected sentence, the placeholder replaced by hand.
        let reference = try Fixtures.cleanedApertium("eng-spa", protection.protectedText)
            .replacingOccurrences(of: placeholder, with: "estación de tren")
        let result = try await Self.translator(try Self.store([Self.station]))
            .translate(sentence, from: Fixtures.english, to: Fixtures.spanish)
        #expect(result.text == reference)
        #expect(!(try Fixtures.apertium("eng-spa", sentence)).contains("estación de tren"))
    }

    @Test func capitalizationOfTheSentenceIsKept() async throws {
        let translator = Self.translator(try Self.store([Self.station]))
        let opening = try await translator.translate("Train station is closed.", from: Fixtures.english, to: Fixtures.spanish)
        #expect(opening.text.hasPrefix("Estación de tren "))
        // Apertium capitalises the word after an unknown first word; the source's lower case is kept.
        #expect(!opening.text.dropFirst("Estación de tren ".count).first!.isUppercase)
        let shouted = try await translator.translate("WHERE IS THE TRAIN STATION", from: Fixtures.english, to: Fixtures.spanish)
        #expect(shouted.text.contains("ESTACIÓN DE TREN"))
    }

    @Test func aNameIsKeptUntranslated() async throws {
        let sentence = "The bank is closed."
        let plain = try Fixtures.apertium("eng-spa", sentence)
        #expect(plain.contains("banco"))
        let bank = GlossaryEntry(kind: .term, source: "bank", target: "Bank")
        let result = try await Self.translator(try Self.store([bank])).translate(sentence, from: Fixtures.english, to: Fixtures.spanish)
        #expect(result.text.contains("Bank") && !result.text.contains("banco"), "\(result.text)")
    }

    @Test func spanishIntoEnglishToo() async throws {
        let sentence = "Quiero una tortilla, por favor."
        let plain = try Fixtures.apertium("spa-eng_US", sentence)
        #expect(!plain.contains("Spanish omelette"))
        let entry = GlossaryEntry(kind: .term, source: "tortilla", target: "Spanish omelette")
        let result = try await Self.translator(try Self.store([entry], from: "es", to: "en"))
            .translate(sentence, from: Fixtures.spanish, to: Fixtures.english)
        #expect(result.text.contains("Spanish omelette"), "\(result.text)")
    }

    @Test func aPhrasebookHitReturnsTheFixedPhrase() async throws {
        let phrase = GlossaryEntry(kind: .phrase, source: "Please speak more slowly", target: "Por favor, hable más despacio.")
        let translator = Self.translator(try Self.store([phrase]))
        for typed in ["Please speak more slowly.", "please   speak more slowly!", "PLEASE SPEAK MORE SLOWLY"] {
            #expect(try Fixtures.apertium("eng-spa", typed) != phrase.target)
            let result = try await translator.translateWithGlossary(typed, from: Fixtures.english, to: Fixtures.spanish)
            #expect(result.translation.result.text == phrase.target)
            #expect(result.applied == [phrase])
        }
        // A longer sentence holding the phrase is not the phrase: Apertium translates it.
        let longer = "Please speak more slowly to me."
        let other = try await translator.translate(longer, from: Fixtures.english, to: Fixtures.spanish)
        #expect(other.text == (try Fixtures.cleanedApertium("eng-spa", longer)))
    }

    @Test func placeholdersAreNeverReportedAsUnknownWords() async throws {
        let sentence = "I have a xyzzy at the train station."
        let result = try await Self.translator(try Self.store([Self.station]))
            .translateWithGlossary(sentence, from: Fixtures.english, to: Fixtures.spanish)
        #expect(result.translation.result.unknownWords == ["xyzzy"])
        #expect(result.translation.markedText?.contains("*xyzzy") == true)
        #expect(result.translation.markedText?.contains("pqzxglo") == false)
    }

    @Test func editsApplyToTheNextSentenceAndSurviveARestart() async throws {
        let store = try Self.store([])
        let sentence = "Where is the train station?"
        let first = Self.translator(store)
        let before = try await first.translate(sentence, from: Fixtures.english, to: Fixtures.spanish)
        #expect(before.text == (try Fixtures.cleanedApertium("eng-spa", sentence)))
        try store.add([Self.station], from: "en", to: "es")
        let after = try await first.translate(sentence, from: Fixtures.english, to: Fixtures.spanish)
        #expect(after.text.contains("estación de tren"))
        // A new translator with new pipelines reads the saved file.
        let restarted = GlossaryTranslator(wrapping: Fixtures.privateTranslator(), store: GlossaryStore(directory: store.directory))
        let again = try await restarted.translate(sentence, from: Fixtures.english, to: Fixtures.spanish)
        await restarted.shutdown()
        #expect(again.text == after.text)
    }

    @Test func aSentenceWithoutTermsIsApertiumsAlone() async throws {
        let translator = Self.translator(try Self.store([Self.station]))
        for sentence in Fixtures.englishSentences.prefix(20) where GlossaryMatcher(entries: [Self.station]).terms(in: sentence).isEmpty {
            let result = try await translator.translateWithGlossary(sentence, from: Fixtures.english, to: Fixtures.spanish)
            #expect(result.translation.result.text == (try Fixtures.cleanedApertium("eng-spa", sentence)))
            #expect(result.applied.isEmpty)
        }
    }
}
