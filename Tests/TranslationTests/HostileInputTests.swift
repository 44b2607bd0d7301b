import ParleyCore
import Testing
import Translation

/// Input that could break Apertium's stream is translated exactly as the
/// `apertium` command translates it, or refused with a message — and the next
/// ordinary sentence still comes out exactly right.
@Suite struct HostileInputTests {
    static let tenThousandCharacters = String(String(repeating: "The house is big and the dog is small. ", count: 260)
        .prefix(10_000))

    static let translatable: [(name: String, text: String)] = [
        ("control characters", "Hello\u{1}\u{7} world\u{1B}[31m red\u{7F} end"),
        ("stream specials", "^ $ @ < > { } [ ] \\ / all of them"),
        ("a lexical unit", "^dog<n><sg>$ and [superblank] and {brace}"),
        ("an end marker", "Good .[][\n] bye .[] []"),
        ("a lone bracket", "["),
        ("a lone backslash", "\\"),
        ("emoji", "I love 🍕 and 👨‍👩‍👧 very much! 😀"),
        ("ten thousand characters", tenThousandCharacters),
        ("an empty line", ""),
        ("only blanks", "  \t  "),
        ("a newline inside", "Good morning.\nHow are you?"),
        ("a paragraph break inside", "First line.\n\nSecond paragraph."),
        ("carriage returns", "One\r\ntwo\rthree"),
        ("runs of blanks", "  lots   of\tspace  here  "),
        ("other scripts", "مرحبا Привет 你好 cafe\u{301}"),
        ("a long word", String(repeating: "a", count: 3000)),
        ("marks typed by the person", "*star #hash @at"),
    ]

    static let refused: [(name: String, text: String)] = [
        ("an embedded NUL", "Hello\u{0}world"),
        ("a NUL alone", "\u{0}"),
    ]

    static let follower = "Where is the train station?"

    @Test(arguments: translatable.map(\.name))
    func isTranslatedLikeTheCommandAndTheNextSentenceIsExact(_ name: String) async throws {
        let text = Self.translatable.first { $0.name == name }!.text
        let translator = TranslationFixtures.translator
        for direction in [("eng-spa", TranslationFixtures.english, TranslationFixtures.spanish),
                          ("spa-eng_US", TranslationFixtures.spanish, TranslationFixtures.english)] {
            let result = try await translator.translate(text, from: direction.1, to: direction.2)
            #expect(result.text == (try TranslationFixtures.cleanedApertium(direction.0, text)), "\(name), \(direction.0)")
            let next = try await translator.translate(Self.follower, from: direction.1, to: direction.2)
            #expect(next.text == (try TranslationFixtures.cleanedApertium(direction.0, Self.follower)))
        }
    }

    @Test(arguments: refused.map(\.name))
    func isRefusedWithAMessageAndTheNextSentenceIsExact(_ name: String) async throws {
        let text = Self.refused.first { $0.name == name }!.text
        let translator = TranslationFixtures.translator
        let error = await #expect(throws: TranslationError.self) {
            try await translator.translate(text, from: TranslationFixtures.english, to: TranslationFixtures.spanish)
        }
        #expect(error.map { "\($0)" }?.contains("NUL") == true)
        let next = try await translator.translate(Self.follower, from: TranslationFixtures.english, to: TranslationFixtures.spanish)
        #expect(next.text == (try TranslationFixtures.cleanedApertium("eng-spa", Self.follower)))
    }

    @Test func textOverTheLimitIsRefusedWithTheLimit() async throws {
        let translator = TranslationFixtures.privateTranslator(limits: TranslationLimits(maximumCharacters: 50))
        let error = await #expect(throws: TranslationError.self) {
            try await translator.translate(String(repeating: "word ", count: 20), from: TranslationFixtures.english,
                                           to: TranslationFixtures.spanish)
        }
        #expect(error.map { "\($0)" }?.contains("the limit is 50") == true)
        await translator.shutdown()
    }

    @Test func anEmptyLineNeedsNoPipeline() async throws {
        let translator = TranslationFixtures.privateTranslator()
        let result = try await translator.translate("", from: TranslationFixtures.english, to: TranslationFixtures.spanish)
        #expect(result.text == "")
        #expect(try await translator.processGroups(from: TranslationFixtures.english, to: TranslationFixtures.spanish).isEmpty)
    }
}
