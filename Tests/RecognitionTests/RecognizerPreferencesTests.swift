import Foundation
import Locales
import Recognition
import Testing
import TestSupport

/// `recognizers.tsv` as a person edits it: good rows layered over the shipped ones,
/// and a typo named by file and line with what to write instead.
@Suite struct RecognizerPreferencesTests {
    /// Writes `text` as `recognizers.tsv` in a new directory and returns the directory.
    private func directory(holding text: String) throws -> URL {
        let directory = try Fixtures.temporaryDirectory()
        try Data(text.utf8).write(to: directory.appendingPathComponent("recognizers.tsv"))
        return directory
    }

    @Test("a later directory's row replaces an earlier one for the same language")
    func layering() throws {
        let shipped = try directory(holding: "*\twhisper,pocketsphinx\nes\twhisper\n")
        let personal = try directory(holding: "# mine\nES\tpocketsphinx, whisper\n")
        defer { for url in [shipped, personal] { try? FileManager.default.removeItem(at: url) } }
        let preferences = try RecognizerPreferences.load(from: [shipped.path, personal.path])
        #expect(preferences.order(for: "es") == [.pocketsphinx, .whisper])
        #expect(preferences.order(for: "fr") == [.whisper, .pocketsphinx])
    }

    @Test("a misspelt recognizer is a data file error naming the file, the line, the word and the form of a row")
    func misspeltRecognizer() throws {
        let folder = try directory(holding: "# which engine first\n*\twhisper,pocketsphinx\nes\twhispr\n")
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("recognizers.tsv").path
        let error = try #require(throws: DataFileError.self) { try RecognizerPreferences.load(from: [folder.path]) }
        #expect(error.path == path)
        #expect(error.line == 3)
        #expect(error.message.contains("'whispr' is not a recognizer"))
        #expect(error.message.contains("whisper, pocketsphinx"))
        #expect(error.message.contains("es<TAB>whisper,pocketsphinx"))
        #expect(String(describing: error).hasPrefix("\(path):3: "))
    }

    @Test("a row without a tab or with a third field is named by its line")
    func wrongFieldCount() throws {
        for (text, found) in [("en whisper\n", "no tab"), ("\nen\twhisper\tpocketsphinx\n", "3 fields")] {
            let folder = try directory(holding: text)
            defer { try? FileManager.default.removeItem(at: folder) }
            let error = try #require(throws: DataFileError.self) { try RecognizerPreferences.load(from: [folder.path]) }
            #expect(error.line == (text.hasPrefix("\n") ? 2 : 1))
            #expect(error.message.contains("found \(found)"))
        }
    }

    @Test("a row that names no recognizer is an error")
    func noRecognizer() throws {
        let folder = try directory(holding: "en\t,\n")
        defer { try? FileManager.default.removeItem(at: folder) }
        let error = try #require(throws: DataFileError.self) { try RecognizerPreferences.load(from: [folder.path]) }
        #expect(error.line == 1)
        #expect(error.message.contains("names no recognizer"))
    }
}
