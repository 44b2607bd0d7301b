import Foundation
import Testing
@testable import WhisperRecognition
@testable import Recognition
import TestSupport

/// The recognition data files, written on Windows: CRLF line endings and a byte order mark.
@Suite struct DataFileLineEndingTests {
    @Test("recognizers.tsv with a BOM and CRLF reads its rows")
    func recognizerPreferences() throws {
        let directory = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        try Data("\u{FEFF}# which engine first\r\nes\tpocketsphinx\r\n*\twhisper,pocketsphinx\r\n".utf8)
            .write(to: directory.appendingPathComponent("recognizers.tsv"))
        let preferences = try RecognizerPreferences.load(from: [directory.path])
        #expect(preferences.order(for: "es") == [.pocketsphinx])
        #expect(preferences.order(for: "fr") == [.whisper, .pocketsphinx])
    }

    @Test("speech-models.tsv with a BOM and CRLF reads its rows")
    func pinnedModels() throws {
        let directory = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("speech-models.tsv").path
        try Data("\u{FEFF}small\twhisper\t100\tabc\tpkg-a,pkg-b\r\n".utf8).write(to: URL(fileURLWithPath: path))
        #expect(PinnedSpeechModel.load(path) == [PinnedSpeechModel(name: "small", engine: "whisper", bytes: 100, sha256: "abc",
                                                                   packages: ["pkg-a", "pkg-b"])])
    }
}
