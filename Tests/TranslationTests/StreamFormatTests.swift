import Foundation
import TestSupport
import Testing
@testable import Translation

/// Parley's own stream formatting matches the `apertium` command's filters
/// byte for byte: `apertium-destxt` on the way in, `apertium-retxt` on the way out.
@Suite struct StreamFormatTests {
    static let samples = [
        "Where is the train station?", "Hello.", "  lead", "trail  ", "a\nb", "a\n\nb", "a \n\n b", "a\r\nb",
        "tab\there", "x]y[z \\ ^a$ /b@ <c> {d}", "", "emoji 😀 ok", "one  two   three", "\n\nstart", "a\r\n\r\nb",
    ]

    @Test(arguments: samples)
    func requestsAreWhatDestxtPrints(_ text: String) throws {
        let destxt = try ProcessRunner.run(["apertium-destxt"], input: Data((text + "\n").utf8))
        let mark = Array(ApertiumStreamFormat.frameMark(7).utf8)
        #expect(ApertiumStreamFormat.encode(text, frame: 7) == Array(destxt.stdout.utf8) + mark + [0])
    }

    static let answers = ["Hola.[][\n]", "Hola..[][\n]", "Ho.[]la", "a\\[b\\] \\\\c", "x[ab]y", "x.[]", "a[  ]b.[][\n\n]c", "\\@x \\/y"]

    @Test(arguments: answers)
    func answersReadAsRetxtPrintsThem(_ answer: String) throws {
        let retxt = try ProcessRunner.run(["apertium-retxt"], input: Data(answer.utf8))
        #expect(ApertiumStreamFormat.decode(Array(answer.utf8)) == retxt.stdout)
    }

    @Test func anAnswerOfAnotherFrameIsRejected() {
        let answer = Array("Hola.[][\n][parley-3]".utf8)
        #expect(ApertiumStreamFormat.decode(answer, frame: 3) == "Hola\n")
        #expect(ApertiumStreamFormat.decode(answer, frame: 4) == nil)
        #expect(ApertiumStreamFormat.decode([], frame: 4) == nil)
    }
}

/// Unknown words are found by comparing the marked and the clean translation.
@Suite struct UnknownWordTests {
    @Test func marksBecomeWordsWithTheirKind() {
        let words = UnknownWordScanner.unknownWords(marked: "Dónde es la #canal de *xyzzy?", clean: "Dónde es la canal de xyzzy?")
        #expect(words == [UnknownWord(word: "canal", kind: .notGenerated), UnknownWord(word: "xyzzy", kind: .notInSourceDictionary)])
    }

    @Test func markCharactersThePersonTypedAreNotUnknownWords() {
        let words = UnknownWordScanner.unknownWords(marked: "#etiqueta y *blorp", clean: "#etiqueta y blorp")
        #expect(words == [UnknownWord(word: "blorp", kind: .notInSourceDictionary)])
    }

    @Test func aMarkAfterPunctuationIsFound() {
        let words = UnknownWordScanner.unknownWords(marked: "¿@perro?", clean: "¿perro?")
        #expect(words == [UnknownWord(word: "perro", kind: .notInBilingualDictionary)])
    }

    @Test func aWordIsReportedOnce() {
        let words = UnknownWordScanner.unknownWords(marked: "*zork y *zork", clean: "zork y zork")
        #expect(words.map(\.word) == ["zork"])
    }

    @Test func realTranslationsReportTheUnknownWord() async throws {
        let result = try await TranslationFixtures.translator.translateMarked(
            "I have a xyzzy in my garden.", from: TranslationFixtures.english, to: TranslationFixtures.spanish)
        #expect(result.result.unknownWords == ["xyzzy"])
        #expect(result.unknownWords.first?.kind == .notInSourceDictionary)
        #expect(!result.result.text.contains("*"))
    }

    @Test func aTranslatorWithoutMarksReportsNoUnknownWords() async throws {
        let translator = ApertiumTranslator(locales: TranslationFixtures.registry.catalog,
                                            configuration: .init(reportsUnknownWords: false))
        let result = try await translator.translateMarked("I have a xyzzy.", from: TranslationFixtures.english,
                                                          to: TranslationFixtures.spanish)
        #expect(result.markedText == nil)
        #expect(result.unknownWords.isEmpty)
        #expect(result.result.text == (try TranslationFixtures.apertium("eng-spa", "I have a xyzzy.")))  // no clean-up configured
        await translator.shutdown()
    }
}
