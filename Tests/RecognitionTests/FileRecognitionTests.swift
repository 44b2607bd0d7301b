import Foundation
import ParleyCore
import Testing
@testable import Recognition
import TestSupport

extension RecognitionEngineTests {
    @Test("a file gives the same words as pocketsphinx_continuous with the same settings",
          arguments: Reference.recordings)
    func sameWordsAsContinuous(_ name: String) async throws {
        let path = Fixtures.recording(name)
        let expected = try Reference.continuous(path, configuration: Reference.defaultConfiguration())
        let fresh = PocketSphinxRecognizer(models: ModelRegistry(userDirectory: nil))
        let results = try await fresh.transcribeFile(path, locale: Reference.english)
        #expect(results.map(\.text) == expected)
        #expect(!expected.isEmpty)
    }
}
