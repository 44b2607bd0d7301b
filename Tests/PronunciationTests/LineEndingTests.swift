import Foundation
import Locales
import Testing
@testable import Pronunciation

/// Files written on Windows: CRLF line endings and a UTF-8 byte order mark.
@Suite("CRLF and BOM files")
struct LineEndingTests {
    static let windowsDictionary = "\u{FEFF}# mine\r\nNguyen\twˈɪn\r\nbroken line\r\nSiobhan\tʃɪvˈɔːn\r\n"

    @Test("a CRLF dictionary with a BOM reads every entry, and line numbers stay right")
    func readsEntries() {
        let document = DictionaryDocument(parsing: Self.windowsDictionary, path: "en.dict")
        #expect(document.entries.map(\.word) == ["Nguyen", "Siobhan"])
        #expect(document.entries.map(\.ipa) == ["wˈɪn", "ʃɪvˈɔːn"])
        #expect(document.problems.map(\.line) == [3])
    }

    @Test("an edit keeps the file's CRLF line endings and its BOM")
    func savesAsItCame() throws {
        let dictionaries = PronunciationDictionaries(directories: try TestData.directories())
        let file = dictionaries.path(language: "en", layer: .user)
        try Data(Self.windowsDictionary.utf8).write(to: URL(fileURLWithPath: file))
        try dictionaries.add(word: "tomato", ipa: "təˈmɑːtəʊ", language: "en")
        let saved = try Data(contentsOf: URL(fileURLWithPath: file))
        #expect(saved == Data((Self.windowsDictionary + "tomato\ttəˈmɑːtəʊ\r\n").utf8))
    }

    @Test("a file with LF endings and no BOM is saved the same way")
    func unixFileUnchanged() {
        let text = "# mine\nNguyen\twˈɪn\n"
        #expect(DictionaryDocument(parsing: text, path: "en.dict").serialized() == text)
    }

    @Test("the tab-separated data files read CRLF and a BOM")
    func dataFileRows() {
        let rows = DataFile.rows(of: "\u{FEFF}a\tb\r\n# note\r\nc\td\r\n")
        #expect(rows.map(\.fields) == [["a", "b"], ["c", "d"]])
        #expect(rows.map(\.line) == [1, 3])
        #expect(DataFile.rows(of: "\u{FEFF}# header\r\nx\ty\r\n").map(\.fields) == [["x", "y"]])
    }

    @Test("the CMU dictionary reads CRLF and a BOM")
    func cmuDictionary() {
        let cmu = CMUDictionary(parsing: "\u{FEFF}hello HH AH L OW\r\nworld W ER L D\r\n")
        #expect(cmu.words == ["hello", "world"])
        #expect(cmu.phones(of: "world") == ["W", "ER", "L", "D"])
    }
}
