import Foundation
import ParleyCore
import Testing

/// A translation result names the languages it went through when it was pivoted.
@Suite struct TranslationResultTests {
    @Test func pivotsAreTheLanguagesBetweenSourceAndTarget() {
        #expect(TranslationResult(source: "Bonjour", text: "Hello", route: ["fr", "es", "en"]).pivots == ["es"])
        #expect(TranslationResult(source: "Hola", text: "Hello").pivots.isEmpty)
    }

    @Test func aResultWrittenWithoutARouteDecodesAsDirect() throws {
        let old = #"{"source":"Hola","text":"Hello","unknownWords":[]}"#
        let decoded = try JSONDecoder().decode(TranslationResult.self, from: Data(old.utf8))
        #expect(decoded == TranslationResult(source: "Hola", text: "Hello"))
        let pivoted = TranslationResult(source: "Bonjour", text: "Hello", unknownWords: ["x"], route: ["fr", "es", "en"])
        #expect(try JSONDecoder().decode(TranslationResult.self, from: JSONEncoder().encode(pivoted)) == pivoted)
    }
}
