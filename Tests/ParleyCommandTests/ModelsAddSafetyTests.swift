import Foundation
import Testing
import TestSupport

/// `parley models add` removes nothing but the one folder it creates, and installs only a
/// model that can be used.
@Suite("parley models add: nothing destroyed", .serialized)
struct ModelsAddSafetyTests {
    @Test("`models add .. --replace` from a model's subfolder, or a --name that is no folder name, leaves everything beside it")
    func keepsWhatIsBesideTheModelsFolder() throws {
        let root = try Fixtures.temporaryDirectory("parley-add-safety")
        defer { try? FileManager.default.removeItem(at: root) }
        let home = root.appendingPathComponent("p"), models = home.appendingPathComponent("models")
        let glossary = home.appendingPathComponent("dictionaries/glossary-en-es.tsv")
        try FileManager.default.createDirectory(at: models, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: glossary.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data("keep\n".utf8).write(to: glossary)
        let source = root.appendingPathComponent("src")
        try ModelFixtures.copy(to: source)
        // A link to a file inside the folder is copied as that file.
        let blobs = source.appendingPathComponent("sub/blobs")
        try FileManager.default.createDirectory(at: blobs, withIntermediateDirectories: true)
        try FileManager.default.moveItem(at: source.appendingPathComponent("vocabulary.txt"), to: blobs.appendingPathComponent("vocabulary"))
        try FileManager.default.createSymbolicLink(atPath: source.appendingPathComponent("vocabulary.txt").path,
                                                   withDestinationPath: "sub/blobs/vocabulary")

        let added = try ModelFixtures.parley(in: source.appendingPathComponent("sub"), ["models", "add", "--models", models.path, "..", "--replace"])
        #expect(added.status == 0, "\(added.stderr)")
        #expect(added.stdout.hasPrefix("added the Whisper model src (99 languages, ") && added.stdout.hasSuffix(" at \(models.path)/src\n"),
                "\(added.stdout)")
        #expect(try String(contentsOf: glossary, encoding: .utf8) == "keep\n")
        #expect(try ModelFixtures.entries(home) == ["dictionaries", "models"])
        #expect(try ModelFixtures.entries(models) == ["src"])
        let vocabulary = try FileManager.default.attributesOfItem(atPath: models.appendingPathComponent("src/vocabulary.txt").path)
        #expect(vocabulary[.type] as? FileAttributeType == .typeRegular)

        for name in ["..", "", ".", "../escaped", "a/b", "/abs", ".hidden", "src.adding-12"] {
            let refused = try ProcessRunner.parley(["models", "add", source.path, "--models", models.path, "--name", name, "--replace"])
            #expect(refused.status == 64, "\(name): \(refused.stderr)")
            #expect(refused.stderr.contains("the model name \"\(name)\" cannot be used: a model's name is one folder name"),
                    "\(name): \(refused.stderr)")
            #expect(!refused.stderr.contains("NSCocoaErrorDomain") && !refused.stderr.contains("error 512"), "\(refused.stderr)")
        }
        #expect(try String(contentsOf: glossary, encoding: .utf8) == "keep\n")
        #expect(try ModelFixtures.entries(root) == ["p", "src"])
        #expect(try ModelFixtures.entries(home) == ["dictionaries", "models"])
        #expect(try ModelFixtures.entries(models) == ["src"])

        // A replacement takes the old model's place; nothing is left beside it.
        let replaced = try ProcessRunner.parley(["models", "add", source.path, "--models", models.path, "--replace"])
        #expect(replaced.status == 0, "\(replaced.stderr)")
        #expect(try ModelFixtures.entries(models) == ["src"])
        #expect(try ModelFixtures.entries(models.appendingPathComponent("src"))
                == ["config.json", "model.bin", "parley-sha256.txt", "sub", "tokenizer.json", "vocabulary.txt"])
    }

    @Test("a model that does not load in the Whisper worker is refused, and the model it would replace stays")
    func refusesAModelThatDoesNotLoad() throws {
        let root = try Fixtures.temporaryDirectory("parley-add-load")
        defer { try? FileManager.default.removeItem(at: root) }
        let models = root.appendingPathComponent("models")
        let kept = try ProcessRunner.parley(["models", "add", WhisperRecognitionTests.installedModel, "--name", "mine", "--models", models.path])
        try #require(kept.status == 0, "\(kept.stderr)")
        let recorded = try String(contentsOf: models.appendingPathComponent("mine/parley-sha256.txt"), encoding: .utf8)

        // The header names a Whisper model, but the file ends a megabyte in.
        let damaged = root.appendingPathComponent("damaged")
        try ModelFixtures.copy(to: damaged)
        let weights = try Data(contentsOf: URL(fileURLWithPath: "\(WhisperRecognitionTests.installedModel)/model.bin")).prefix(1_000_000)
        try ModelFixtures.replace("model.bin", in: damaged, with: Data(weights))
        let refused = try ProcessRunner.parley(["models", "add", damaged.path, "--name", "mine", "--replace", "--models", models.path])
        #expect(refused.status == 1)
        #expect(refused.stderr.hasPrefix("parley: \(damaged.path) does not load in the Whisper worker: ")
                && refused.stderr.hasSuffix("; nothing was installed\n"), "\(refused.stderr)")
        #expect(refused.stderr.split(separator: "\n").count == 1 && !refused.stderr.contains(".adding-"), "\(refused.stderr)")
        #expect(try ModelFixtures.entries(models) == ["mine"])
        #expect(try String(contentsOf: models.appendingPathComponent("mine/parley-sha256.txt"), encoding: .utf8) == recorded)
        #expect(try ModelsCommandTests.size(models.appendingPathComponent("mine/model.bin").path)
                == (try #require(WhisperInstallTests.pinned).bytes))
    }

    @Test("model files that cannot be used are refused in one sentence naming the file, before anything is copied")
    func refusesUnusableFiles() throws {
        let root = try Fixtures.temporaryDirectory("parley-add-files")
        defer { try? FileManager.default.removeItem(at: root) }
        let models = root.appendingPathComponent("models")
        try FileManager.default.createDirectory(at: models, withIntermediateDirectories: true)
        var cases: [(String, String)] = []
        func model(_ name: String, _ expected: String, _ change: (URL) throws -> Void) throws {
            let folder = root.appendingPathComponent(name)
            try ModelFixtures.copy(to: folder)
            try change(folder)
            cases.append((name, expected.replacingOccurrences(of: "FOLDER", with: folder.path)))
        }
        try model("empty", "FOLDER/model.bin is empty") { try ModelFixtures.replace("model.bin", in: $0, with: Data()) }
        try model("random", "FOLDER/model.bin is not a CTranslate2 Whisper model file") {
            try ModelFixtures.replace("model.bin", in: $0, with: Data((0..<1_000_000).map { _ in UInt8.random(in: 0...255) }))
        }
        try model("sparse", "FOLDER/model.bin is not a CTranslate2 Whisper model file") {
            try ModelFixtures.replace("model.bin", in: $0, with: Data())
            let handle = try FileHandle(forWritingTo: $0.appendingPathComponent("model.bin"))
            try handle.truncate(atOffset: 2 << 30)
            try handle.close()
        }
        try model("linked", "FOLDER/model.bin is a link to /etc/passwd, outside the model folder") {
            try FileManager.default.removeItem(at: $0.appendingPathComponent("model.bin"))
            try FileManager.default.createSymbolicLink(atPath: $0.appendingPathComponent("model.bin").path, withDestinationPath: "/etc/passwd")
        }
        try model("config", "FOLDER/config.json is not a JSON object") {
            try ModelFixtures.replace("config.json", in: $0, with: Data("{\"lang_ids\": [1,".utf8))
        }
        try model("negative", "FOLDER/config.json lists language token -1, which FOLDER/vocabulary.txt does not have") {
            try ModelFixtures.writeConfiguration(to: $0, languageIDs: [50259, -1])
        }
        try model("tokenizer", "FOLDER/tokenizer.json is not a JSON object") {
            try ModelFixtures.replace("tokenizer.json", in: $0, with: Data("not json".utf8))
        }
        for (name, expected) in cases {
            let refused = try ProcessRunner.parley(["models", "add", root.appendingPathComponent(name).path, "--models", models.path])
            #expect(refused.status == 1, "\(name): \(refused.stdout)")
            #expect(refused.stderr.contains(expected) && refused.stderr.hasSuffix("; nothing was installed\n"), "\(name): \(refused.stderr)")
            #expect(refused.stderr.split(separator: "\n").count == 1, "\(name): \(refused.stderr)")
            #expect(try ModelFixtures.entries(models).isEmpty, "\(name)")
        }
        let listed = try ProcessRunner.parley(["models", "--json", "--models", models.path])
        #expect(listed.status == 0 && !listed.stdout.contains("\"whisper\""), "\(listed.stdout)")
    }

    @Test("a models folder that is a file, or under one, is said in one sentence naming it")
    func saysWhyTheModelsFolderCannotBeUsed() throws {
        for (models, expected) in [
            ("/etc/passwd", "parley: the models folder /etc/passwd is a file, not a folder; give --models a folder\n"),
            ("/etc/passwd/models", "parley: cannot create the models folder /etc/passwd/models: /etc/passwd is a file, not a folder\n"),
        ] {
            let refused = try ProcessRunner.parley(["models", "add", WhisperRecognitionTests.installedModel, "--models", models])
            #expect(refused.status == 1 && refused.stderr == expected, "\(refused.stderr)")
        }
    }
}
