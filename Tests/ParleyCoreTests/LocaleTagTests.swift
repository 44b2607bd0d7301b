import Foundation
import ParleyCore
import Testing

@Suite struct LocaleTagTests {
    @Test(arguments: [
        ("en", "en"), ("en-US", "en-US"), ("en_us", "en-US"), ("EN-us", "en-US"),
        ("es-419", "es-419"), ("ast", "ast"), ("pt_BR", "pt-BR"), ("zh-hans-cn", "zh-Hans-CN"),
        ("sr-Latn", "sr-Latn"), ("en-GB-scotland", "en-GB-scotland"), ("en-GB-x-rp", "en-GB-x-rp"),
        ("ca-ES-valencia", "ca-ES-valencia"), ("de-CH-1996", "de-CH-1996"), ("en-US-u-ca-gregory", "en-US-u-ca-gregory"),
        ("vi-VN-X-Central", "vi-VN-x-central"),
    ])
    func parsesCanonicalForms(input: String, expected: String) throws {
        #expect(try #require(LocaleTag(input)).description == expected)
    }

    @Test(arguments: ["", "e", "english", "en-USA", "en-1", "en-US-x", "e1-US", "en-U5", "-US", "en--US", "en-US-",
                      "en-u", "en-u-x", "en-x-toolongsubtag", "en-Latn-Latn", "en-US-x-a-" , String(repeating: "a", count: 300),
                      "en-" + String(repeating: "abcde-", count: 20) + "x-y"])
    func rejectsMalformedTags(input: String) {
        #expect(LocaleTag(input) == nil)
    }

    @Test func keepsTheSubtagsApart() throws {
        let tag = try #require(LocaleTag("sr-latn-rs-x-ekavian"))
        #expect(tag.language == "sr" && tag.script == "Latn" && tag.region == "RS" && tag.variants == ["x", "ekavian"])
        #expect(tag.languageAndRegion == LocaleTag("sr-RS"))
        #expect(!tag.isBareLanguage && LocaleTag("sq")!.isBareLanguage)
    }

    @Test func dropsTheRegion() {
        #expect(LocaleTag(language: "es", region: "419").languageOnly == LocaleTag(language: "es"))
    }

    @Test func encodesAsItsTag() throws {
        let data = try JSONEncoder().encode([LocaleTag(language: "en", region: "US")])
        #expect(String(decoding: data, as: UTF8.self) == #"["en-US"]"#)
        #expect(try JSONDecoder().decode([LocaleTag].self, from: Data(#"["es_es"]"#.utf8)) == [LocaleTag("es-ES")!])
        #expect(throws: DecodingError.self) { try JSONDecoder().decode([LocaleTag].self, from: Data(#"["nope!"]"#.utf8)) }
    }
}

@Suite struct AudioLevelTests {
    @Test func silenceIsZero() {
        #expect(AudioLevel(measuring: [Int16](repeating: 0, count: 160)) == .silent)
        #expect(AudioLevel(measuring: [Int16]()) == .silent)
    }

    @Test func fullScaleSquareWave() {
        let level = AudioLevel(measuring: [Int16.max, Int16.min, Int16.max, Int16.min])
        #expect(abs(level.peak - 1) < 0.001)
        #expect(abs(level.rms - 1) < 0.001)
    }

    @Test func sineHasRmsOfPeakOverRootTwo() {
        let samples = (0..<16_000).map { Int16(16_384 * sin(2 * Double.pi * 440 * Double($0) / 16_000)) }
        let level = PCMChunk(format: .recognition, samples: samples).level
        #expect(abs(level.peak - 0.5) < 0.01)
        #expect(abs(level.rms - 0.5 / 2.0.squareRoot()) < 0.01)
    }

    @Test func durationFollowsTheFormat() {
        let stereo = AudioFormat(sampleRate: 8_000, channels: 2)
        #expect(PCMChunk(format: stereo, samples: [Int16](repeating: 0, count: 16_000)).duration == 1)
        #expect(AudioFormat.recognition.sampleCount(forSeconds: 0.5) == 8_000)
    }
}

@Suite struct RecognitionErrorTests {
    @Test func unsupportedLocaleListsInstalledOnes() {
        let error = RecognitionError.unsupportedLocale(LocaleTag("es-ES")!, installed: [LocaleTag("en-US")!])
        #expect(error.description.hasPrefix("no speech model for es-ES; installed: en-US;"))
        let many = RecognitionError.unsupportedLocale(LocaleTag("tlh")!, installed: ["en-US", "af", "am", "ar", "as", "az", "ba", "be", "bg"]
            .map { LocaleTag($0)! })
        #expect(many.description.hasPrefix("no speech model for tlh; installed: 9 locales and languages; "), "\(many)")
        #expect(many.description.contains("`parley languages`"))
    }

    @Test func overridesAreCaseInsensitive() {
        let overrides = PronunciationOverrides(["en": ["tomato": "t@m'A:toU"]])
        #expect(overrides.phonemes(for: "Tomato", language: "EN") == "t@m'A:toU")
        #expect(overrides.phonemes(for: "potato", language: "en") == nil)
    }
}
