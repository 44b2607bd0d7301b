import Foundation
import Testing
import TestSupport

/// `parley models`: listing, adding, and the SHA-256 kept for an added Whisper model.
@Suite("parley models", .serialized)
struct ModelsCommandTests {
    @Test("lists the pinned Whisper model as verified and the packaged PocketSphinx model")
    func listsInstalledModels() throws {
        let output = try ProcessRunner.parley(["models", "--json"])
        #expect(output.status == 0, "\(output.stderr)")
        let rows = try #require(try JSONSerialization.jsonObject(with: Data(output.stdout.utf8)) as? [[String: Any]])
        let whisper = try #require(rows.first { $0["engine"] as? String == "whisper" })
        #expect(whisper["name"] as? String == "whisper-base" && whisper["verified"] as? String == "yes")
        #expect((whisper["languages"] as? [String])?.count == 99)
        #expect((whisper["bytes"] as? Int ?? 0) > 145_217_532)
        let sphinx = try #require(rows.first { $0["engine"] as? String == "pocketsphinx" })
        #expect(sphinx["name"] as? String == "en-US" && sphinx["verified"] as? String == "Debian package")
    }

    @Test("an added Whisper model is copied with its SHA-256, listed, used, and a later change is caught")
    func addsAWhisperModel() throws {
        let models = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: models) }
        let added = try ProcessRunner.parley(["models", "add", WhisperRecognitionTests.installedModel,
                                              "--name", "my-whisper", "--models", models.path])
        #expect(added.status == 0, "\(added.stderr)")
        #expect(added.stdout.hasPrefix("added the Whisper model my-whisper (99 languages, SHA-256 d01c3014"))
        let again = try ProcessRunner.parley(["models", "add", WhisperRecognitionTests.installedModel,
                                              "--name", "my-whisper", "--models", models.path])
        #expect(again.status == 1 && again.stderr.contains("already installed") && again.stderr.contains("--replace"))

        let heard = try ProcessRunner.parley(["listen", "--recognizer", "whisper", "--models", models.path,
                                              "--file", Fixtures.recording("goforward.raw")])
        #expect(heard.status == 0 && heard.stdout == "Go forward 10 meters.\n", "\(heard.stderr)")

        let weights = models.appendingPathComponent("my-whisper/model.bin")
        let handle = try FileHandle(forUpdating: weights)
        try handle.seek(toOffset: 1_000_000)
        try handle.write(contentsOf: Data([0x5A, 0xA5]))
        try handle.close()
        let listed = try ProcessRunner.parley(["models", "--models", models.path])
        #expect(listed.stdout.split(separator: "\n").contains { $0.contains("my-whisper") && $0.contains("NO: SHA-256 differs") },
                "\(listed.stdout)")
        let refused = try ProcessRunner.parley(["listen", "--recognizer", "whisper", "--models", models.path,
                                                "--file", Fixtures.recording("goforward.raw")])
        #expect(refused.status == 1 && refused.stderr.contains("has SHA-256"), "\(refused.stderr)")
    }

    @Test("a folder that is no model is refused in one sentence, and nothing is installed")
    func refusesOtherFolders() throws {
        let models = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: models) }
        let output = try ProcessRunner.parley(["models", "add", Fixtures.dataDirectory, "--models", models.path])
        #expect(output.status == 1)
        #expect(output.stderr.hasPrefix("parley: \(Fixtures.dataDirectory) is neither a CTranslate2 Whisper model"))
        #expect(output.stderr.split(separator: "\n").count == 1)
        #expect(try FileManager.default.contentsOfDirectory(atPath: models.path).isEmpty)
        let sphinx = try ProcessRunner.parley(["models", "add", "/usr/share/pocketsphinx/model/en-us", "--locale", "en-GB",
                                               "--models", models.path])
        #expect(sphinx.status == 0, "\(sphinx.stderr)")
        let languages = try ProcessRunner.parley(["languages", "--json", "--models", models.path])
        let rows = try #require(try JSONSerialization.jsonObject(with: Data(languages.stdout.utf8)) as? [[String: Any]])
        #expect((rows.first { $0["locale"] as? String == "en-GB" }?["recognizers"] as? [String])?.contains("pocketsphinx") == true)
    }
}
