import Locales
import Testing
@testable import Translation

/// The per-language clean-up after Apertium, and its data file.
@Suite struct TranslationCleanupTests {
    let spanish = TranslationFixtures.cleanup

    @Test func aQuestionGetsItsOpeningMarkAtTheSentenceStart() {
        let result = spanish.apply(to: "Es allí un banco se acerca el hotel?", language: "es")
        #expect(result.text == "¿Es allí un banco se acerca el hotel?")
        #expect(result.applied == ["opening-mark"])
    }

    @Test func aQuestionAfterACommaGetsItsMarkAtTheQuestionWord() {
        #expect(spanish.apply(to: "Buenas tardes, cómo es usted?", language: "es").text == "Buenas tardes, ¿cómo es usted?")
        #expect(spanish.apply(to: "Perdón, dónde es la estación?", language: "es").text == "Perdón, ¿dónde es la estación?")
    }

    @Test func aCommaBeforeAnOrdinaryWordKeepsTheMarkAtTheStart() {
        #expect(spanish.apply(to: "Tengo, un perro?", language: "es").text == "¿Tengo, un perro?")
    }

    @Test func exclamationsAndSecondSentencesGetTheirOwnMarks() {
        #expect(spanish.apply(to: "Gracias! Dónde es el baño?", language: "es").text == "¡Gracias! ¿Dónde es el baño?")
        #expect(spanish.apply(to: "Hola. Qué hora es?", language: "es").text == "Hola. ¿Qué hora es?")
    }

    @Test func aDecimalPointDoesNotEndASentence() {
        #expect(spanish.apply(to: "Cuesta 3.5 euros?", language: "es").text == "¿Cuesta 3.5 euros?")
    }

    @Test func anExistingOpeningMarkIsKept() {
        let result = spanish.apply(to: "¿Dónde está?", language: "es")
        #expect(result.text == "¿Dónde está?")
        #expect(result.applied.isEmpty)
    }

    @Test func doubleSpacesCollapseAndTheFirstLetterIsCapitalized() {
        let result = spanish.apply(to: "quiero  dos  billetes", language: "es")
        #expect(result.text == "Quiero dos billetes")
        #expect(result.applied == ["collapse-spaces", "capitalize-first"])
        #expect(spanish.apply(to: "dónde es?", language: "es").text == "¿Dónde es?")
    }

    @Test func englishGetsNoOpeningMarks() {
        #expect(spanish.apply(to: "where is it?", language: "en").text == "Where is it?")
    }

    @Test func aLanguageWithoutRulesIsUnchanged() {
        let result = spanish.apply(to: "ou  est-il?", language: "fr")
        #expect(result == TranslationCleanup.Result(text: "ou  est-il?", applied: []))
    }

    @Test func malformedRowsNameTheirLine() {
        let text = "# rules\nes\tcollapse-spaces\nes\topening-mark\t?\nes\tshout\n"
        #expect(throws: DataFileError(path: "x.tsv", line: 3, message:
            "unknown rule or wrong arguments: 'opening-mark ?' (rules: collapse-spaces, capitalize-first, opening-mark CLOSE OPEN, clause-word WORD)")) {
            try TranslationCleanup(parsing: text, path: "x.tsv")
        }
    }

    @Test func theShippedFileHasRulesForBothLanguages() {
        #expect(spanish.languages["es"]?.openingMarks["?"] == "¿")
        #expect(spanish.languages["es"]?.openingMarks["!"] == "¡")
        #expect(spanish.languages["en"]?.capitalizesFirst == true)
    }
}
