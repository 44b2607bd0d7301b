import Foundation
import Testing
import TestSupport
@testable import Pronunciation

/// PLS files as large as export makes them, and PLS files that end too soon.
@Suite("PLS import of large, empty and truncated files", .serialized)
struct LargePLSTests {
    static let header = """
        <?xml version="1.0" encoding="UTF-8"?>
        <lexicon version="1.0" xmlns="http://www.w3.org/2005/01/pronunciation-lexicon" alphabet="ipa" xml:lang="en">

        """

    @Test("a 13 MB export of 150,000 entries imports back whole")
    func largeExportImports() throws {
        let directory = try TestData.temporaryDirectory()
        let pls = "\(directory)/big.pls"
        let entries = (0..<150_000).map { DictionaryEntry(word: "word\($0)", ipa: "təˈmɑːtəʊ") }
        let text = PLSLexicon.export(entries, language: "en")
        #expect(text.utf8.count > 12_000_000)
        try text.write(toFile: pls, atomically: true, encoding: .utf8)
        let result = try DictCommandTests.parley(["dict", "import", "en", pls], directory: directory)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout == "imported 150000 entries into \(directory)/en.dict\n")
    }

    @Test("an empty PLS file fails with one sentence and imports nothing")
    func emptyFile() throws {
        let directory = try TestData.temporaryDirectory()
        let pls = "\(directory)/empty.pls"
        #expect(FileManager.default.createFile(atPath: pls, contents: Data()))
        let result = try DictCommandTests.parley(["dict", "import", "en", pls], directory: directory)
        #expect(result.status == 1)
        #expect(result.stderr == "parley: cannot import \(pls): the file is empty\n")
        #expect(!FileManager.default.fileExists(atPath: "\(directory)/en.dict"))
    }

    @Test("a PLS file cut off before </lexicon> fails with one sentence and imports nothing")
    func truncatedFile() throws {
        let directory = try TestData.temporaryDirectory()
        let pls = "\(directory)/cut.pls"
        try (Self.header + "  <lexeme><grapheme>tomato</grapheme><phoneme>təˈmɑːtəʊ</phoneme></lexeme>\n  <lexeme><graph")
            .write(toFile: pls, atomically: true, encoding: .utf8)
        let result = try DictCommandTests.parley(["dict", "import", "en", pls], directory: directory)
        #expect(result.status == 1)
        #expect(result.stderr == "parley: cannot import \(pls): the file ends before </lexicon> (at line 4); it may be cut off\n")
        #expect(!FileManager.default.fileExists(atPath: "\(directory)/en.dict"))
    }

    @Test("a PLS file with a lexicon but no lexemes fails with one sentence")
    func noLexemes() throws {
        let directory = try TestData.temporaryDirectory()
        let pls = "\(directory)/none.pls"
        try (Self.header + "</lexicon>\n").write(toFile: pls, atomically: true, encoding: .utf8)
        let result = try DictCommandTests.parley(["dict", "import", "en", pls], directory: directory)
        #expect(result.status == 1)
        #expect(result.stderr == "parley: cannot import \(pls): the lexicon has no <lexeme> with a grapheme and a phoneme\n")
    }
}
