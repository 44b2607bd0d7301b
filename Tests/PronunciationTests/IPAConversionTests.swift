import Testing
@testable import Pronunciation

@Suite("IPA → eSpeak NG mnemonics")
struct IPAConversionTests {
    @Test("tomato in IPA becomes espeak phonemes joined by |, stress before the syllable kept")
    func tomato() throws {
        #expect(try TestData.converter("en").mnemonics(for: "təˈmɑːtəʊ") == "t|@|'m|0|t|@|U")
    }

    @Test("variants people type are normalized: ASCII g and ', tie bars, ɝ, ɫ, ASCII length")
    func normalization() throws {
        let converter = try TestData.converter("en")
        #expect(try converter.mnemonics(for: "'gʊd") == converter.mnemonics(for: "ˈɡʊd"))
        #expect(try converter.mnemonics(for: "t͡ʃɝtʃ") == converter.mnemonics(for: "tʃɜːtʃ"))
        #expect(try converter.mnemonics(for: "fiːɫ") == converter.mnemonics(for: "fiːl"))
        #expect(try converter.mnemonics(for: "fi:l") == converter.mnemonics(for: "fiːl"))
    }

    @Test("what espeak itself writes is never normalized away (syllabic n̩, Spanish tʃ)")
    func espeakSymbolsKept() throws {
        #expect(try TestData.converter("en").mnemonics(for: "bˈʌʔn̩") == "b|'V|?|n-")
        #expect(try TestData.converter("es").mnemonics(for: "tʃˈat") == "tS|'a|t")
    }

    @Test("a symbol with no equivalent is named with its position")
    func unknownSymbol() throws {
        #expect(throws: PronunciationError.unknownSymbol(symbol: "ɮ", position: 3, ipa: "təɮo", language: "en")) {
            try TestData.converter("en").mnemonics(for: "təɮo")
        }
        let message = String(describing: PronunciationError.unknownSymbol(symbol: "ɮ", position: 3, ipa: "təɮo", language: "en"))
        #expect(message == "'ɮ' at position 3 of 'təɮo' has no eSpeak NG equivalent in the en table; use one of the symbols `parley dict symbols en` lists")
    }

    @Test("the position counts characters, a base with its marks as one")
    func positionCountsCharacters() throws {
        #expect(throws: PronunciationError.unknownSymbol(symbol: "ʕ", position: 4, ipa: "n̩aːʕ", language: "es")) {
            try TestData.converter("es").mnemonics(for: "n̩aːʕ")
        }
    }

    @Test("empty pronunciation and a stress mark with nothing after it are refused")
    func emptyAndDanglingStress() throws {
        let converter = try TestData.converter("en")
        #expect(throws: PronunciationError.emptyPronunciation(word: "x")) { try converter.mnemonics(for: "  ", word: "x") }
        #expect(throws: PronunciationError.danglingStress(position: 3, ipa: "təˈ")) { try converter.mnemonics(for: "təˈ") }
        #expect(String(describing: PronunciationError.emptyPronunciation(word: "x"))
                == "the pronunciation of 'x' is empty; give it in IPA, e.g. təˈmɑːtəʊ")
    }

    @Test("phrases keep their word boundaries")
    func phrase() throws {
        #expect(try TestData.converter("en").mnemonics(for: "nuː  jˈɔːɹk") == "n|u: j|'O@|k")
    }

    @Test("validation refuses anything but the table's phonemes, e.g. a bracket ending phoneme input")
    func validation() throws {
        let converter = try TestData.converter("en")
        try converter.validate(mnemonics: "t|@|'m|0|t|@|U")
        #expect(throws: PronunciationError.invalidMnemonics("t]] hello [[t", language: "en")) {
            try converter.validate(mnemonics: "t]] hello [[t")
        }
        #expect(throws: PronunciationError.self) { try converter.validate(mnemonics: "t||@") }
    }
}
