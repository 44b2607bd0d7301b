import Foundation
import Locales
import Testing
@testable import Pronunciation

@Suite("Dictionary files")
struct DictionaryFileTests {
    static let text = """
        # names
        Nguyen\tŋwˈɪn
        no tab here
        \tˈsʌmθɪŋ
        quinoa\t
        NGUYEN\twˈɪn
        New  York\tnuː jˈɔːɹk
        a\tb\tc

        """

    @Test("malformed lines, empty words and duplicates are reported with file and line; the rest loads")
    func problems() {
        let document = DictionaryDocument(parsing: Self.text, path: "en.dict")
        #expect(document.problems.map(\.description) == [
            "en.dict:3: expected a word, a tab and its IPA pronunciation, found no tab",
            "en.dict:4: the word is empty; give the word or phrase before its pronunciation",
            "en.dict:5: the pronunciation of 'quinoa' is empty; give it in IPA, e.g. təˈmɑːtəʊ",
            "en.dict:6: 'NGUYEN' is already defined on line 2; this line is ignored",
            "en.dict:8: expected a word, a tab and its IPA pronunciation, found 2 tabs",
        ])
        #expect(document.entries == [DictionaryEntry(word: "Nguyen", ipa: "ŋwˈɪn"),
                                     DictionaryEntry(word: "New  York", ipa: "nuː jˈɔːɹk")])
        #expect(document.entry(for: "new york")?.ipa == "nuː jˈɔːɹk")
    }

    @Test("editing keeps comments, malformed lines and order; a replaced entry stays in place")
    func editKeepsLayout() {
        var document = DictionaryDocument(parsing: Self.text, path: "en.dict")
        document.set(DictionaryEntry(word: "nguyen", ipa: "nwˈɪn"))
        document.set(DictionaryEntry(word: "quinoa", ipa: "kˈiːnwɑː"))
        let removedNewYork = document.remove("NEW YORK")
        let removedBoston = document.remove("Boston")
        #expect(removedNewYork && !removedBoston)
        let expected = Self.text
            .replacingOccurrences(of: "Nguyen\tŋwˈɪn", with: "nguyen\tnwˈɪn")
            .replacingOccurrences(of: "New  York\tnuː jˈɔːɹk\n", with: "") + "quinoa\tkˈiːnwɑː\n"
        #expect(document.serialized() == expected)
    }

    @Test("a pronunciation that does not convert is reported at its line; the others load")
    func conversionProblem() throws {
        let directories = try TestData.directories(shipped: TestData.shippedCopy(enDictionary: "tomato\ttəˈmɑːtəʊ\nbad\tbɮd\n"))
        let dictionary = try PronunciationDictionaries(directories: directories).load(language: "en")
        #expect(dictionary.entries.map(\.entry.word) == ["tomato"])
        #expect(dictionary.problems.map(\.description) == [
            "\(directories.shipped)/en.dict:2: 'ɮ' at position 2 of 'bɮd' has no eSpeak NG equivalent in the en table; use one of the symbols `parley dict symbols en` lists",
        ])
    }

    @Test("the shipped dictionaries load without problems and every entry converts")
    func shippedDictionaries() throws {
        let dictionaries = PronunciationDictionaries(directories: try TestData.directories())
        for language in ["en", "es"] {
            let dictionary = try dictionaries.load(language: language)
            #expect(dictionary.problems.isEmpty, "\(dictionary.problems)")
            #expect(dictionary.entries.count >= 5)
        }
    }
}
