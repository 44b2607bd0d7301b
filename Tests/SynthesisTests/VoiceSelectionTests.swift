import Testing
import ParleyCore
@testable import Synthesis

@Suite("Voices: listing and selection by identifier, language and locale")
struct VoiceSelectionTests {
    func startedVoice(_ selection: VoiceSelection) async throws -> Voice? {
        let synthesizer = try makeSynthesizer()
        let spoken = try await collect(synthesizer, Utterance(text: "Uno.", voice: selection))
        guard case let .started(voice) = spoken.events.first else { return nil }
        return voice
    }

    @Test("every installed voice is listed with language, locale and gender")
    func listing() async throws {
        let voices = try await makeSynthesizer().voices()
        let espeakCount = try ProcessRunner.run(["espeak-ng", "--voices"]).stdout.split(separator: "\n").count - 1
        #expect(voices.count == espeakCount)
        let spanish = try #require(voices.first { $0.identifier == "es" })
        #expect(spanish.language == "es")
        #expect(spanish.locale == LocaleTag("es-ES"))
        #expect(spanish.gender != .unspecified)
        #expect(voices.first { $0.identifier == "en-us" }?.locale == LocaleTag("en-US"))
    }

    @Test("by identifier")
    func byIdentifier() async throws {
        #expect(try await startedVoice(.identifier("en-us"))?.identifier == "en-us")
        #expect(try await startedVoice(.identifier("roa/es"))?.identifier == "es")
    }

    @Test("by language, through the synthesis priority table: es speaks as es-ES")
    func byLanguage() async throws {
        let voice = try await startedVoice(.locale(LocaleTag("es")!))
        #expect(voice?.identifier == "es")
        #expect(voice?.locale == LocaleTag("es-ES"))
    }

    @Test("by locale, through the locale catalog: es-MX speaks with espeak's es-419")
    func byLocale() async throws {
        #expect(try await startedVoice(.locale(LocaleTag("es-MX")!))?.identifier == "es-419")
        #expect(try await startedVoice(.locale(LocaleTag("en-GB")!))?.identifier == "en-gb")
    }

    @Test("a locale no table names speaks with the closest installed voice", arguments: [
        ("sq-AL", "sq"), ("sq", "sq"), ("hi-IN", "hi"), ("pt-BR", "pt-br"), ("zh-Hans-CN", "cmn"), ("cmn-Latn", "cmn-latn-pinyin"),
        ("yue-HK", "yue"), ("no", "nb"), ("fr-CA", "fr-fr"), ("fr-BE", "fr-be"), ("vi-VN", "vi"), ("en-GB-scotland", "en-gb-scotland"),
        ("en-AU", "en-gb"), ("es-AR", "es"), ("hr-HR", "hr"),
    ])
    func closestVoice(locale: String, identifier: String) async throws {
        #expect(try await startedVoice(.locale(LocaleTag(locale)!))?.identifier == identifier)
    }

    @Test("espeak's language names read as locales, leniently")
    func voiceNamesAsLocales() {
        #expect(VoiceMatch.tag(fromVoiceName: "en-gb-x-rp").description == "en-GB-x-rp")
        #expect(VoiceMatch.tag(fromVoiceName: "chr-US-Qaaa-x-west").description == "chr-US-x-west")
        #expect(VoiceMatch.tag(fromVoiceName: "cmn-latn-pinyin").description == "cmn-Latn-pinyin")
        #expect(VoiceMatch.tag(fromVoiceName: "en-029").description == "en-029")
        #expect(VoiceMatch.tag(fromVoiceName: "piqd").description == "piqd")
    }

    @Test("a gender preference picks the variant, and it sounds higher")
    func genderPreference() async throws {
        let synthesizer = try makeSynthesizer()
        let catalog = try await synthesizer.catalog()
        let female = try catalog.resolve(.locale(LocaleTag("es")!, gender: .female))
        #expect(female.espeakName == "roa/es+f3")
        #expect(female.voice.gender == .female)
        let text = "Buenos días, ¿cómo está usted hoy?"
        let high = try await collect(synthesizer, Utterance(text: text, voice: .locale(LocaleTag("es")!, gender: .female)))
        let low = try await collect(synthesizer, Utterance(text: text, voice: .locale(LocaleTag("es")!, gender: .male)))
        #expect(medianFundamental(high.samples) > medianFundamental(low.samples) * 1.3)
    }

    @Test("an unknown voice fails with a message listing close matches")
    func unknownVoice() async throws {
        let synthesizer = try makeSynthesizer()
        await #expect {
            _ = try await collect(synthesizer, Utterance(text: "x", voice: .identifier("en-usa")))
        } throws: { error in
            let message = String(describing: error)
            return message.hasPrefix("no voice 'en-usa'; did you mean ") && message.contains("en-us")
        }
    }

    @Test("a locale without a voice fails naming the locale")
    func unknownLocale() async throws {
        let synthesizer = try makeSynthesizer()
        await #expect {
            _ = try await collect(synthesizer, Utterance(text: "x", voice: .locale(LocaleTag("gl-ES")!)))
        } throws: { error in
            String(describing: error).hasPrefix("no voice speaks gl-ES")
        }
    }
}

import TestSupport

@Suite("The voice gender table")
struct VoiceGenderTableTests {
    static let text = "# comment\n*\tmale\t-\n*\tfemale\tf3\nes\tfemale\tf2\nvi\tfemale\t-\n"

    @Test("the most specific row wins: language, then *")
    func variants() throws {
        let table = try VoiceGenderTable(parsing: Self.text, path: "genders.tsv")
        #expect(table.variant(for: .female, ofLanguage: ["es"]) == "f2")
        #expect(table.variant(for: .female, ofLanguage: ["es-419", "es"]) == "f2")
        #expect(table.variant(for: .female, ofLanguage: ["en-us"]) == "f3")
        #expect(table.variant(for: .male, ofLanguage: ["en-us"]) == nil)
        #expect(table.nativeGender(ofLanguage: ["en-us"]) == .male)
        #expect(table.specificGender(ofLanguage: ["vi"]) == .female)
        #expect(table.specificGender(ofLanguage: ["en-us"]) == nil)
    }

    @Test("a row of our own for a language overrides espeak's listing")
    func tableOverridesListing() throws {
        let table = try VoiceGenderTable(parsing: Self.text, path: "genders.tsv")
        let listed = [ListedVoice(name: "Vietnamese", languages: ["vi"], file: "aav/vi", gender: 1),
                      ListedVoice(name: "Spanish", languages: ["es"], file: "roa/es", gender: 1)]
        let catalog = VoiceCatalog(listed: listed, variants: ["f2", "f3"], registry: nil, genders: table)
        #expect(catalog.voices.map(\.gender) == [.female, .male])
        #expect(try catalog.resolve(.identifier("vi")).voice.gender == .female)
        #expect(try catalog.resolve(.identifier("roa/es+f2")).voice.gender == .female)
    }

    @Test("a malformed row names its file and line")
    func malformed() {
        #expect(throws: DataFileError(path: "g.tsv", line: 2, message: "unknown gender 'other'; use male or female")) {
            _ = try VoiceGenderTable(parsing: "*\tmale\t-\nes\tother\tf2\n", path: "g.tsv")
        }
    }
}

import Locales

@Suite("Variants")
struct VariantTests {
    @Test("a misspelled variant is refused with close ones, not silently ignored as espeak would")
    func unknownVariant() async throws {
        let catalog = try await makeSynthesizer().catalog()
        #expect(catalog.variants.contains("f3") && catalog.variants.contains("m3"))
        #expect(try catalog.resolve(.identifier("en-us+f3")).espeakName == "gmw/en-US+f3")
        #expect(throws: SynthesisError.unknownVoice("en-us+f33", suggestions: ["en-us+f3"])) {
            _ = try catalog.resolve(.identifier("en-us+f33"))
        }
    }
}
