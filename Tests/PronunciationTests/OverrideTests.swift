import ParleyCoreFakes
import Testing
@testable import Pronunciation

@Suite("Overrides change what espeak says", .serialized)
struct OverrideTests {
    /// Phonemes without stress marks and with the flap espeak makes of an intervocalic t.
    static func sounds(_ ipa: String) -> String {
        String(ipa.filter { $0 != "ˈ" && $0 != "ˌ" }).replacingOccurrences(of: "ɾ", with: "t")
    }

    @Test("'I say tomato' with tomato → təˈmɑːtəʊ: espeak's phonemes match the override and differ from its own")
    func tomato() async throws {
        let directories = try TestData.directories()
        let dictionaries = PronunciationDictionaries(directories: directories)
        try dictionaries.add(word: "Tomato", ipa: "təˈmɑːtəʊ", language: "en")
        let overrides = dictionaries.overrides(for: ["en"]).overrides
        let mnemonics = try #require(overrides.phonemes(for: "tomato", language: "en"))
        let transcriber = TestData.transcriber
        let plain = try await transcriber.phonemes(of: "I say tomato", voice: "en-us", notation: .ipa, separator: nil)
        let overridden = try await transcriber.phonemes(of: "I say [[\(mnemonics)]]", voice: "en-us", notation: .ipa, separator: nil)
        #expect(plain == "aɪ sˈeɪ təmˈeɪɾoʊ")
        #expect(overridden != plain)
        let spokenTomato = try #require(overridden.split(separator: " ").last)
        #expect(Self.sounds(String(spokenTomato)) == Self.sounds("təˈmɑːtəʊ"))
    }

    @Test("lookup shows the override as espeak says it, and espeak's own pronunciation")
    func lookup() async throws {
        let dictionaries = PronunciationDictionaries(directories: try TestData.directories())
        try dictionaries.add(word: "tomato", ipa: "təˈmɑːtəʊ", language: "en")
        let mnemonics = try #require(dictionaries.overrides(for: ["en"]).overrides.phonemes(for: "tomato", language: "en"))
        // espeak's answers for these texts (the test above checks them against espeak itself).
        let transcriber = FakePhonemeTranscriber(ipa: ["TOMATO": "təmˈeɪɾoʊ", "[[\(mnemonics)]]": "təmˈɑːɾəʊ",
                                                       "potato": "pətˈeɪɾoʊ"])
        let lookup = PronunciationLookup(dictionaries: dictionaries, transcriber: transcriber)
        let result = try await lookup.lookup("TOMATO", language: "en", voice: "en-us")
        #expect(result.espeakOwn == "təmˈeɪɾoʊ")
        #expect(result.current == "təmˈɑːɾəʊ")
        #expect(result.override?.entry.ipa == "təˈmɑːtəʊ")
        let plain = try await lookup.lookup("potato", language: "en", voice: "en-us")
        #expect(plain.override == nil && plain.current == plain.espeakOwn)
    }

    @Test("every shipped entry changes what espeak says: only words it gets wrong are shipped")
    func shippedEntriesMatter() async throws {
        let dictionaries = PronunciationDictionaries(directories: try TestData.directories())
        let lookup = PronunciationLookup(dictionaries: dictionaries, transcriber: TestData.transcriber)
        for (language, voice) in [("en", "en-us"), ("es", "es")] {
            for resolved in try dictionaries.load(language: language).entries {
                let result = try await lookup.lookup(resolved.entry.word, language: language, voice: voice)
                #expect(result.current != result.espeakOwn, "\(language) \(resolved.entry.word): \(result.current)")
            }
        }
    }
}
