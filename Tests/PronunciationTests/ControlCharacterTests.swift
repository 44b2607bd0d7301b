import Foundation
import Testing
import TestSupport
@testable import Pronunciation

/// Tabs, newlines and other control characters cannot be written into a one-entry-per-line file.
@Suite("Control characters in words and IPA", .serialized)
struct ControlCharacterTests {
    @Test("dict add refuses IPA with a newline and a tab, in one sentence, and writes nothing")
    func newlineInIPA() throws {
        let directory = try TestData.temporaryDirectory()
        let result = try DictCommandTests.parley(["dict", "add", "en", "foo", "tə\nevil\tɪvəl"], directory: directory)
        #expect(result.status == 1)
        #expect(result.stderr == "parley: the pronunciation of 'foo' contains a control character (U+000A, a line feed, "
            + "at position 3); a pronunciation is one line of IPA\n")
        #expect(!FileManager.default.fileExists(atPath: "\(directory)/en.dict"))
    }

    @Test("a word with a control character is refused without printing it raw")
    func escapeInWord() throws {
        let directory = try TestData.temporaryDirectory()
        let result = try DictCommandTests.parley(["dict", "add", "en", "foo\u{1B}[31m", "fuː"], directory: directory)
        #expect(result.status == 1)
        #expect(result.stderr == "parley: the word contains a control character (U+001B at position 4); a word is one line of text\n")
        #expect(!FileManager.default.fileExists(atPath: "\(directory)/en.dict"))
    }

    @Test("a PLS phoneme with a newline fails the import with one sentence; nothing is imported")
    func newlineInPLSPhoneme() throws {
        let directory = try TestData.temporaryDirectory()
        let pls = "\(directory)/evil.pls"
        try """
            <?xml version="1.0" encoding="UTF-8"?>
            <lexicon version="1.0" xmlns="http://www.w3.org/2005/01/pronunciation-lexicon" alphabet="ipa" xml:lang="en">
              <lexeme><grapheme>tomato</grapheme><phoneme>təˈmɑːtəʊ</phoneme></lexeme>
              <lexeme><grapheme>foo</grapheme><phoneme>tə
            evil\tɪvəl</phoneme></lexeme>
            </lexicon>
            """.write(toFile: pls, atomically: true, encoding: .utf8)
        let result = try DictCommandTests.parley(["dict", "import", "en", pls], directory: directory)
        #expect(result.status == 1)
        #expect(result.stderr == "parley: the pronunciation of 'foo' contains a control character (U+000A, a line feed, "
            + "at position 3); a pronunciation is one line of IPA\n")
        #expect(!FileManager.default.fileExists(atPath: "\(directory)/en.dict"))
    }
}
