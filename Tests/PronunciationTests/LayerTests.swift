import Foundation
import Locales
import ParleyCore
import Testing
@testable import Pronunciation

@Suite("Shipped and user layers")
struct LayerTests {
    static func dictionaries() throws -> PronunciationDictionaries {
        let shipped = try TestData.shippedCopy(enDictionary: "# shipped\nNguyen\tŋwˈɪn\nGIF\tɡˈɪf\n")
        return PronunciationDictionaries(directories: try TestData.directories(shipped: shipped))
    }

    @Test("user entries overlay shipped ones; the shipped file is never written")
    func overlay() throws {
        let dictionaries = try Self.dictionaries()
        let shippedText = try String(contentsOfFile: dictionaries.path(language: "en", layer: .shipped), encoding: .utf8)
        try dictionaries.add(word: "gif", ipa: "dʒˈɪf", language: "en")
        try dictionaries.add(word: "tomato", ipa: "təˈmɑːtəʊ", language: "en")
        let dictionary = try dictionaries.load(language: "en")
        #expect(dictionary.entries.map { "\($0.entry.word) \($0.layer.rawValue)" } == ["Nguyen shipped", "gif user", "tomato user"])
        #expect(dictionary.entry(for: "GIF")?.entry.ipa == "dʒˈɪf")
        #expect(try String(contentsOfFile: dictionaries.path(language: "en", layer: .shipped), encoding: .utf8) == shippedText)
        let overrides = dictionaries.overrides(for: ["en", "fr"]).overrides
        #expect(overrides.phonemes(for: "Gif", language: "en") == "dZ|'I|f")
        #expect(overrides.entries["fr"] == nil)
    }

    @Test("remove deletes the user's entry, then hides the shipped one, then says it is not there")
    func remove() throws {
        let dictionaries = try Self.dictionaries()
        try dictionaries.add(word: "gif", ipa: "dʒˈɪf", language: "en")
        #expect(try dictionaries.remove(word: "GIF", language: "en") == .removedUserEntry)
        #expect(try dictionaries.load(language: "en").entry(for: "gif")?.layer == .shipped)
        #expect(try dictionaries.remove(word: "gif", language: "en") == .hidShippedEntry)
        #expect(try dictionaries.load(language: "en").entry(for: "gif") == nil)
        #expect(throws: PronunciationError.notInDictionary(word: "gif", language: "en")) {
            try dictionaries.remove(word: "gif", language: "en")
        }
        #expect(String(describing: PronunciationError.notInDictionary(word: "gif", language: "en"))
                == "'gif' is not in your en dictionary; `parley dict list en` shows what is")
    }

    @Test("add refuses what does not convert, an empty word or pronunciation, and saves nothing")
    func addRefuses() throws {
        let dictionaries = try Self.dictionaries()
        #expect(throws: PronunciationError.emptyWord) { try dictionaries.add(word: "  ", ipa: "ə", language: "en") }
        #expect(throws: PronunciationError.emptyPronunciation(word: "tomato")) { try dictionaries.add(word: "tomato", ipa: " ", language: "en") }
        #expect(throws: PronunciationError.unknownSymbol(symbol: "ʕ", position: 1, ipa: "ʕa", language: "en")) {
            try dictionaries.add(word: "x", ipa: "ʕa", language: "en")
        }
        #expect(!FileManager.default.fileExists(atPath: dictionaries.path(language: "en", layer: .user)))
    }

    @Test("a language without an IPA table is refused with what to do")
    func noTable() throws {
        let dictionaries = try Self.dictionaries()
        #expect(throws: PronunciationError.self) { try dictionaries.add(word: "x", ipa: "a", language: "fr") }
        let message = String(describing: PronunciationError.noSymbolTable(language: "fr", path: "/d/ipa-fr.tsv"))
        #expect(message == "no IPA table for 'fr' (looked for /d/ipa-fr.tsv); regenerate it with `parley dict build-tables fr`")
    }
}
