import Foundation
import Testing
@testable import Pronunciation

@Suite("PLS and CMU import", .serialized)
struct InterchangeTests {
    @Test("PLS export then import gives the same entries, special characters included")
    func plsRoundTrip() throws {
        let entries = [DictionaryEntry(word: "tomato", ipa: "təˈmɑːtəʊ"),
                       DictionaryEntry(word: "AT&T", ipa: "ˌeɪtiːəndtˈiː"),
                       DictionaryEntry(word: "New York", ipa: "nuː jˈɔːɹk"),
                       DictionaryEntry(word: "<b> \"rock\" 'n' roll", ipa: "ɹˈɑːk ən ɹˈoʊl")]
        let xml = PLSLexicon.export(entries, language: "en")
        #expect(xml.contains("alphabet=\"ipa\""))
        #expect(try PLSLexicon.entries(parsing: Data(xml.utf8), path: "x.pls") == entries)
    }

    @Test("a PLS lexicon in another alphabet is refused")
    func otherAlphabet() {
        let xml = """
            <?xml version="1.0" encoding="UTF-8"?>
            <lexicon version="1.0" xmlns="http://www.w3.org/2005/01/pronunciation-lexicon" alphabet="x-sampa" xml:lang="en">
              <lexeme><grapheme>tomato</grapheme><phoneme>t@"mA:t@U</phoneme></lexeme>
            </lexicon>
            """
        #expect(throws: PronunciationError.importFailure(path: "x.pls", reason: "line 3 uses alphabet 'x-sampa'; only alphabet=\"ipa\" can be imported")) {
            try PLSLexicon.entries(parsing: Data(xml.utf8), path: "x.pls")
        }
    }

    @Test("a lexeme with two graphemes gives two entries; an alias-only lexeme none")
    func graphemes() throws {
        let xml = """
            <lexicon version="1.0" xmlns="http://www.w3.org/2005/01/pronunciation-lexicon" alphabet="ipa" xml:lang="en">
              <lexeme><grapheme>colour</grapheme><grapheme>color</grapheme><phoneme>kˈʌlɚ</phoneme><phoneme>kˈʌlə</phoneme></lexeme>
              <lexeme><grapheme>W3C</grapheme><alias>World Wide Web Consortium</alias></lexeme>
            </lexicon>
            """
        #expect(try PLSLexicon.entries(parsing: Data(xml.utf8), path: "x.pls")
                == [DictionaryEntry(word: "colour", ipa: "kˈʌlɚ"), DictionaryEntry(word: "color", ipa: "kˈʌlɚ")])
    }

    /// ARPAbet → espeak mnemonics written independently of the shipped tables.
    static let arpabetMnemonics: [String: String] = [
        "AA": "A:", "AE": "a", "AH": "@", "AO": "O:", "AW": "aU", "AY": "aI", "B": "b", "CH": "tS", "D": "d",
        "DH": "D", "EH": "E", "ER": "3", "EY": "eI", "F": "f", "G": "g", "HH": "h", "IH": "I", "IY": "i:",
        "JH": "dZ", "K": "k", "L": "l", "M": "m", "N": "n", "NG": "N", "OW": "oU", "OY": "OI", "P": "p",
        "R": "r", "S": "s", "SH": "S", "T": "t", "TH": "T", "UH": "U", "UW": "u:", "V": "v", "W": "w",
        "Y": "j", "Z": "z", "ZH": "Z",
    ]

    /// Vowels whose stressed form differs.
    static let stressedMnemonics = ["AH": "V", "ER": "3:"]

    @Test("CMU import of a word list: each lookup is espeak's pronunciation of the word's CMU phones")
    func cmuImport() async throws {
        let dictionaries = PronunciationDictionaries(directories: try TestData.directories())
        let cmu = try CMUDictionary.load()
        let importer = CMUImport(cmu: cmu, arpabet: try ARPAbetTable.load(from: dictionaries.directories))
        let words = ["tomato", "judge", "vision", "thinking", "boy", "house", "yes", "church", "quickly", "zzyzxq"]
        let result = try importer.entries(for: words)
        #expect(result.missing == ["zzyzxq"])
        try dictionaries.add(entries: result.entries, language: "en")
        let lookup = PronunciationLookup(dictionaries: dictionaries, transcriber: TestData.transcriber)
        for word in words.dropLast() {
            let phones = try #require(cmu.phones(of: word))
            // The model's copy has no stress digits: a one-vowel word's vowel is the stressed one.
            let vowels = phones.filter { ARPAbetTable.vowels.contains($0) }
            let direct = phones.map { phone in
                vowels.count == 1 && vowels[0] == phone ? "'" + (Self.stressedMnemonics[phone] ?? Self.arpabetMnemonics[phone]!)
                                                        : Self.arpabetMnemonics[phone]!
            }.joined(separator: "|")
            let expected = try await TestData.transcriber.phonemes(of: "[[\(direct)]]", voice: "en-us", notation: .ipa, separator: nil)
            let found = try await lookup.lookup(word, language: "en", voice: "en-us")
            #expect(found.override?.layer == .user)
            #expect(found.current == expected, "\(word): \(phones)")
        }
    }
}
