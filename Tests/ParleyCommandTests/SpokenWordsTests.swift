import Testing
import TestSupport

/// The word error count the spoken tests rely on.
@Suite("Spoken word errors")
struct SpokenWordsTests {
    @Test("written as the transcripts write: case, punctuation, hyphens, numbers and Mr. do not count")
    func normalization() {
        #expect(SpokenWords.normalized("Go forward 10 meters.") == ["go", "forward", "ten", "meters"])
        #expect(SpokenWords.errors("And Mr. John, ill-disposed?", reference: "and mister john ill disposed") == 0)
        #expect(SpokenWords.errors("¿Dónde está la estación? A las 8.", reference: "donde esta la estacion a las ocho",
                                   language: "es") == 0)
        #expect(SpokenWords.errors("Merci beaucoup !", reference: "merci beaucoup", language: "fr") == 0)
    }

    @Test("substitutions, deletions and insertions all count: invented words cost")
    func edits() {
        let reference = "he might even have been made amiable himself"
        #expect(SpokenWords.errors("he might have been made amiable himself", reference: reference) == 1)
        #expect(SpokenWords.errors("he might even have been made a real boy himself", reference: reference) == 3)
        #expect(SpokenWords.errors("he might even have been made amiable himself so there", reference: reference) == 2)
        #expect(SpokenWords.errors("", reference: reference) == 8)
        #expect(SpokenWords.errorRate("he might even have been made amiable himself so there", reference: reference) == 0.25)
        #expect(SpokenWords.errorRate("words", reference: "") == 1)
    }

    @Test("a reading that shares only function words with a sentence shares none of its content")
    func contentWords() {
        let sentence = "El tren sale de la estación a las ocho de la mañana."
        #expect(SpokenWords.contentWords(sentence, language: "es") == ["tren", "sale", "estacion", "ocho", "manana"])
        #expect(SpokenWords.sharedContent("¿De la? El, de la a las.", reference: sentence, language: "es") == 0)
        #expect(SpokenWords.sharedContent("el tren sale a la socho en la mañana", reference: sentence, language: "es") == 0.6)
        #expect(SpokenWords.sharedContent("Il est dans la maison.", reference: "Elle est dans le jardin.", language: "fr") == 0)
        #expect(SpokenWords.sharedContent("anything", reference: "de la el", language: "es") == 0)
        let coffee = SpokenWords.sharedContent("¿Quién o un café con leche?", reference: "quiero un café con leche", language: "es")
        #expect(abs(coffee - 2.0 / 3.0) < 1e-9)
    }
}
