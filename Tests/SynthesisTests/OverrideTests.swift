import Testing
import ParleyCore
@testable import Synthesis

@Suite("Pronunciation overrides: [[mnemonics]] with phoneme input")
struct OverrideTests {
    static let tomato = PronunciationOverrides(["en": ["tomato": "t@m'A:toU", "new york": "nu: j'O@k"]])

    @Test("espeak's phonemes for the utterance hold the override's, not its own")
    func overrideChangesPhonemes() async throws {
        let plain = try makeSynthesizer()
        let overridden = try makeSynthesizer(overrides: Self.tomato)
        let utterance = Utterance(text: "I like tomato soup.", voice: .identifier("en-us"))
        let before = try await plain.phonemes(of: utterance)
        let after = try await overridden.phonemes(of: utterance)
        #expect(before.contains("t@m'eI"))
        #expect(!after.contains("t@m'eI"))
        #expect(after.contains("t@m'A:"))
        #expect(after.hasPrefix(before.prefix(while: { $0 != "t" })))
    }

    @Test("word events still point at the original words")
    func wordsKeepOriginalRanges() async throws {
        let synthesizer = try makeSynthesizer(overrides: Self.tomato)
        let text = "I like Tomato soup in New York."
        let spoken = try await collect(synthesizer, Utterance(text: text, voice: .identifier("en-us")))
        #expect(spoken.words.map { String(text[$0]) } == ["I", "like", "Tomato", "soup", "in", "New York"])
        #expect(spoken.events.last == .finished)
    }

    @Test("overrides apply only to the utterance's language")
    func otherLanguageUntouched() async throws {
        let synthesizer = try makeSynthesizer(overrides: Self.tomato)
        let phonemes = try await synthesizer.phonemes(of: Utterance(text: "tomato", voice: .identifier("es")))
        #expect(!phonemes.contains("t@m'A:"))
    }

    @Test("a phoneme string espeak does not know is refused, naming the symbol")
    func invalidMnemonics() async throws {
        let synthesizer = try makeSynthesizer(overrides: PronunciationOverrides(["en": ["tomato": "t@m'ɑ:toU"]]))
        let expected = SynthesisError.invalidPhonemes(word: "tomato", phonemes: "t@m'ɑ:toU", symbol: "ɑ", position: 5)
        await #expect(throws: expected) {
            _ = try await collect(synthesizer, Utterance(text: "A tomato.", voice: .identifier("en-us")))
        }
        await #expect(throws: expected) {
            _ = try await synthesizer.phonemes(of: Utterance(text: "A tomato.", voice: .identifier("en-us")))
        }
    }

    @Test("phoneme input typed in the text is kept and mapped; a stray bracket pair is not")
    func typedPhonemeInput() {
        let builder = SpokenTextBuilder(overrides: ["tomato": "t@m'A:toU"])
        let sentence = builder.sentences(of: "Say [[h@l'oU]] tomato [[ now")[0]
        #expect(sentence.text == "Say [[h@l'oU]] [[t@m'A:toU]] [  now")
        #expect(sentence.usesPhonemes)
        #expect(sentence.replacements.map(\.phonemes) == ["h@l'oU", "t@m'A:toU"])
        #expect(sentence.originalRange(position: 7, length: 3) == 4..<14)
        #expect(sentence.originalRange(position: 20, length: 3) == 15..<21)
        #expect(sentence.originalRange(position: 33, length: 3) == 25..<28)
    }

    @Test("typed phoneme input is spoken as phonemes and validated")
    func typedPhonemesSpoken() async throws {
        let synthesizer = try makeSynthesizer()
        let text = "I say [[t@m'A:toU]]."
        let phonemes = try await synthesizer.phonemes(of: Utterance(text: text, voice: .identifier("en-us")))
        #expect(phonemes.hasSuffix("t@m'A:t#oU"))
        let spoken = try await collect(synthesizer, Utterance(text: text, voice: .identifier("en-us")))
        #expect(spoken.words.map { String(text[$0]) } == ["I", "say", "[[t@m'A:toU]]"])
        await #expect(throws: SynthesisError.invalidPhonemes(word: "[[təˈ]]", phonemes: "təˈ", symbol: "ə", position: 2)) {
            _ = try await collect(synthesizer, Utterance(text: "Say [[təˈ]].", voice: .identifier("en-us")))
        }
    }
}
