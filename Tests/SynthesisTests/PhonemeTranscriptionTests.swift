import Testing
import ParleyCore
@testable import Synthesis

@Suite("Phoneme transcription through espeak_TextToPhonemes")
struct PhonemeTranscriptionTests {
    @Test("mnemonics of a word, as espeak-ng -x prints them")
    func mnemonics() async throws {
        let synthesizer = try makeSynthesizer()
        let phonemes = try await synthesizer.phonemes(of: "tomato", voice: "en-us", notation: .mnemonic, separator: nil)
        let command = try commandLinePhonemes("tomato", voice: "en-us", ipa: false)
        #expect(phonemes == command)
        #expect(phonemes.contains("t@m"))
    }

    @Test("IPA with a separator between phonemes, stress before the vowel")
    func ipaWithSeparator() async throws {
        let synthesizer = try makeSynthesizer()
        let phonemes = try await synthesizer.phonemes(of: "hello", voice: "en-us", notation: .ipa, separator: "_")
        #expect(phonemes == "h_ə_l_ˈoʊ")
    }

    @Test("every clause is transcribed, joined by a space")
    func severalClauses() async throws {
        let synthesizer = try makeSynthesizer()
        let phonemes = try await synthesizer.phonemes(of: "Hello, world. How are you?", voice: "en-us",
                                                      notation: .ipa, separator: nil)
        let words = phonemes.split(separator: " ")
        #expect(words.count == 5)
        #expect(words.first == "həlˈoʊ")
        #expect(words.last == "juː")
    }

    @Test("the voice decides the language")
    func spanish() async throws {
        let synthesizer = try makeSynthesizer()
        let phonemes = try await synthesizer.phonemes(of: "perro", voice: "es", notation: .ipa, separator: nil)
        #expect(phonemes == "pˈero")
    }

    @Test("phoneme input [[…]] is read as phonemes, as speech reads it")
    func phonemeInput() async throws {
        let synthesizer = try makeSynthesizer()
        let mnemonics = try await synthesizer.phonemes(of: "I say [[t@m'A:toU]]", voice: "en-us", notation: .mnemonic, separator: nil)
        #expect(mnemonics.hasSuffix("t@m'A:t#oU"))
        let ipa = try await synthesizer.phonemes(of: "[[t@m'A:toU]]", voice: "en-gb", notation: .ipa, separator: nil)
        #expect(ipa.hasPrefix("təmˈɑː"))
        let plain = try await synthesizer.phonemes(of: "tomato", voice: "en-us", notation: .mnemonic, separator: nil)
        #expect(plain == "t@m'eIt#oU")
    }

    @Test("an unknown voice names close matches")
    func unknownVoice() async throws {
        let synthesizer = try makeSynthesizer()
        await #expect {
            _ = try await synthesizer.phonemes(of: "hi", voice: "en-uss", notation: .ipa, separator: nil)
        } throws: { error in
            String(describing: error).contains("en-us")
        }
    }

    @Test("a separator outside 16 bits is refused")
    func badSeparator() async throws {
        let synthesizer = try makeSynthesizer()
        await #expect(throws: SynthesisError.unusableSeparator("😀")) {
            _ = try await synthesizer.phonemes(of: "hi", voice: "en-us", notation: .ipa, separator: "😀")
        }
    }
}

/// What `espeak-ng -q -x` prints for `text`, trimmed.
func commandLinePhonemes(_ text: String, voice: String, ipa: Bool) throws -> String {
    let output = try ProcessRunner.run(["espeak-ng", "-q", ipa ? "--ipa" : "-x", "-v", voice, text])
    return output.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
}

import Foundation
import TestSupport
