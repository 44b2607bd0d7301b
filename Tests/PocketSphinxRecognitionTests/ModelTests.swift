import Foundation
import ParleyCore
import Testing
@testable import PocketSphinxRecognition
@testable import Recognition
import RecognitionTestSupport
import TestSupport

/// A user models directory with one locale folder made of the packaged model's files.
struct UserModels {
    let root: URL
    let folder: URL

    init(locale: String) throws {
        root = try Fixtures.temporaryDirectory("parley-models")
        folder = root.appendingPathComponent(locale)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let model = Fixtures.englishModel
        // Copies, never links: a test that spoils a file must not write through to the system model.
        try FileManager.default.copyItem(atPath: "\(model)/en-us", toPath: folder.appendingPathComponent("acoustic").path)
        try FileManager.default.copyItem(atPath: "\(model)/en-us.lm.bin",
                                         toPath: folder.appendingPathComponent("model.lm.bin").path)
        try FileManager.default.copyItem(atPath: "\(model)/cmudict-en-us.dict",
                                         toPath: folder.appendingPathComponent("words.dict").path)
    }

    func file(_ name: String) -> String { folder.appendingPathComponent(name).path }

    func remove() { try? FileManager.default.removeItem(at: root) }
}

extension RecognitionEngineTests {
    @Test("a model installed in the user models directory adds its locale without code changes")
    func userModel() async throws {
        let models = try UserModels(locale: "es-ES")
        defer { models.remove() }
        let registry = PocketSphinxModelRegistry(userDirectory: models.root.path)
        #expect(registry.supportedLocales == [LocaleTag("en-US")!, LocaleTag("es-ES")!])
        let recognizer = PocketSphinxRecognizer(models: registry)
        let results = try await recognizer.transcribeFile(Fixtures.recording("goforward.raw"), locale: LocaleTag("es-ES")!)
        #expect(results.map(\.text) == ["go forward ten meters"])
    }

    @Test("a model file missing after installation is named", arguments: ["words.dict", "acoustic/means"])
    func missingModelFile(_ name: String) async throws {
        let models = try UserModels(locale: "es-ES")
        defer { models.remove() }
        let recognizer = PocketSphinxRecognizer(models: PocketSphinxModelRegistry(userDirectory: models.root.path))
        try FileManager.default.removeItem(atPath: models.file(name))
        let error = await #expect(throws: RecognitionError.self) {
            _ = try await recognizer.makeRequest(locale: LocaleTag("es-ES")!, options: .init())
        }
        #expect(error == .modelUnusable(path: models.file(name), reason: "the file does not exist"))
        #expect(await !recognizer.isAvailable(LocaleTag("es-ES")!))
    }

    @Test("a corrupt model file is named, with PocketSphinx's reason", arguments: ["model.lm.bin"])
    func corruptModelFile(_ name: String) async throws {
        let models = try UserModels(locale: "es-ES")
        defer { models.remove() }
        try Data("this is not a model\n\u{1}\u{2}\u{3}".utf8).write(to: URL(fileURLWithPath: models.file(name)))
        let recognizer = PocketSphinxRecognizer(models: PocketSphinxModelRegistry(userDirectory: models.root.path))
        let error = await #expect(throws: RecognitionError.self) {
            _ = try await recognizer.makeRequest(locale: LocaleTag("es-ES")!, options: .init())
        }
        guard case let .modelUnusable(path, reason) = error else {
            Issue.record("expected modelUnusable, got \(String(describing: error))")
            return
        }
        #expect(path == models.file(name))
        #expect(!reason.isEmpty)
        #expect(error!.description.hasPrefix("the speech model file \(models.file(name)) cannot be used: "))
    }

    @Test("an unreadable audio file is named with libsndfile's reason")
    func unreadableAudio() async throws {
        let directory = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("noise.wav").path
        try Data("not audio at all".utf8).write(to: URL(fileURLWithPath: path))
        let error = await #expect(throws: RecognitionError.self) {
            try await Self.recognizer.transcribeFile(path, locale: Reference.english)
        }
        guard case let .unreadableAudio(errorPath, reason) = error else {
            Issue.record("expected unreadableAudio, got \(String(describing: error))")
            return
        }
        #expect(errorPath == path)
        #expect(!reason.isEmpty)
    }
}
