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
        #expect((whisper["bytes"] as? Int ?? 0) > (try #require(WhisperInstallTests.pinned).bytes))
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
        #expect(added.stdout.hasPrefix("added the Whisper model my-whisper (99 languages, weights copied as they are: "
                                       + "they are int8 already, SHA-256 \(try #require(WhisperInstallTests.pinned).sha256))"),
                "\(added.stdout)")
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

    /// Writes a float16 copy of an int8 CTranslate2 Whisper model (each int8 weight divided by its row
    /// scale), as models are published: `python3 -c maker WORKER_DIR SOURCE TARGET`.
    static let float16Maker = """
        import os, shutil, struct, sys, numpy
        sys.path.insert(0, sys.argv[1])
        import int8_weights as w
        source, target = sys.argv[2], sys.argv[3]
        version, spec, revision, variables, aliases = w.read_model(source + "/model.bin")
        scales = {n[:-6]: numpy.frombuffer(raw, "<f4") for n, dims, kind, raw in variables if n.endswith("_scale")}
        entries = []
        for name, dims, kind, raw in variables:
            if name.endswith("_scale"):
                continue
            if name in scales:
                rows = numpy.frombuffer(raw, "i1").astype("<f4").reshape(dims[0], -1) / scales[name][:, None]
                entries.append((name, dims, 4, rows.astype("<f2").tobytes()))
            else:
                entries.append((name, dims, kind, bytes(raw)))
        os.makedirs(target)
        with open(target + "/model.bin", "wb") as out:
            out.write(struct.pack("<I", version)); w.write_string(out, spec)
            out.write(struct.pack("<II", revision, len(entries)))
            for entry in entries:
                w.write_variable(out, *entry)
            out.write(struct.pack("<I", len(aliases)))
            for alias, name in aliases:
                w.write_string(out, alias); w.write_string(out, name)
        for name in os.listdir(source):
            if name != "model.bin":
                shutil.copyfile(source + "/" + name, target + "/" + name)
        """

    @Test("a float16 Whisper model is added with int8 weights that compute the same; --keep-weights copies them as they are")
    func storesFloatWeightsAsInt8() throws {
        let directory = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let published = directory.appendingPathComponent("base-f16")
        let worker = Fixtures.repository.appendingPathComponent("worker").path
        let made = try ProcessRunner.run([WhisperInstallTests.python, "-c", Self.float16Maker, worker,
                                          WhisperRecognitionTests.installedModel, published.path])
        try #require(made.status == 0, "\(made.stderr)")
        let floatBytes = try Self.size(published.appendingPathComponent("model.bin").path)
        let models = directory.appendingPathComponent("models")

        let added = try ProcessRunner.parley(["models", "add", published.path, "--models", models.path])
        #expect(added.status == 0, "\(added.stderr)")
        #expect(added.stdout.contains("(99 languages, weights stored as int8: 75.1 MB instead of \(String(format: "%.1f", Double(floatBytes) / 1e6)) MB, SHA-256 "),
                "\(added.stdout)")
        let weights = models.appendingPathComponent("base-f16/model.bin").path
        #expect(try Self.size(weights) == (try #require(WhisperInstallTests.pinned).bytes))
        let recorded = try String(contentsOfFile: models.appendingPathComponent("base-f16/parley-sha256.txt").path, encoding: .utf8)
        #expect(try ProcessRunner.run(["sha256sum", weights]).stdout.hasPrefix(recorded.trimmingCharacters(in: .whitespacesAndNewlines) + " "))
        let heard = try ProcessRunner.parley(["listen", "--recognizer", "whisper", "--models", models.path,
                                              "--file", Fixtures.recording("goforward.raw")])
        #expect(heard.status == 0 && heard.stdout == "Go forward 10 meters.\n", "\(heard.stderr)")

        let kept = try ProcessRunner.parley(["models", "add", published.path, "--name", "kept", "--keep-weights", "--models", models.path])
        #expect(kept.status == 0 && kept.stdout.contains("(99 languages, weights copied as they are, SHA-256 "), "\(kept.stdout)")
        #expect(try Self.size(models.appendingPathComponent("kept/model.bin").path) == floatBytes)
        // Without the Whisper environment, that the model loads cannot be checked: nothing is installed.
        let plain = try ProcessRunner.parley(["models", "add", published.path, "--name", "plain", "--models", models.path],
                                             environment: ["PARLEY_WHISPER_PYTHON": "/nonexistent/python3"])
        #expect(plain.status == 1 && plain.stderr == "parley: cannot check that the model loads: the Whisper worker's Python "
                + "environment (/nonexistent/python3) is not installed; run `make models` in Parley's source tree first; "
                + "nothing was installed\n", "\(plain.stderr)")
        #expect(try Set(FileManager.default.contentsOfDirectory(atPath: models.path)) == ["base-f16", "kept"])

        // When the check cannot run (here: a vocabulary without Whisper's start token), nothing is converted.
        let files = FileManager.default
        try files.removeItem(at: published.appendingPathComponent("tokenizer.json"))
        let vocabulary = published.appendingPathComponent("vocabulary.txt")
        let words = try String(contentsOf: vocabulary, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false)
        try words.map { $0 == "<|startoftranscript|>" ? "<|nostart|>" : $0 }.joined(separator: "\n")
            .write(to: vocabulary, atomically: true, encoding: .utf8)
        let unchecked = try ProcessRunner.parley(["models", "add", published.path, "--name", "unchecked", "--models", models.path])
        #expect(unchecked.status == 0 && unchecked.stdout.contains(
            "(99 languages, weights copied as they are: the check could not run: the model's vocabulary has no <|startoftranscript|> token, SHA-256 "),
                "\(unchecked.stdout)\(unchecked.stderr)")
        #expect(try Self.size(models.appendingPathComponent("unchecked/model.bin").path) == floatBytes)
    }

    static func size(_ path: String) throws -> Int {
        try #require(try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int)
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

        // An option of the other engine is a mistake said in one line, not silently ignored.
        for (arguments, message) in [
            ([WhisperRecognitionTests.installedModel, "--locale", "en-GB"], "parley: --locale is for PocketSphinx models"),
            (["/usr/share/pocketsphinx/model/en-us", "--locale", "en-GB", "--name", "mine"], "parley: --name is for Whisper models"),
            (["/usr/share/pocketsphinx/model/en-us", "--locale", "en-GB", "--keep-weights"], "parley: --keep-weights is for Whisper models"),
            // A path that is no folder is said as such, not as a folder of the wrong kind.
            ([models.path + "/nowhere"], "parley: there is no \(models.path)/nowhere; give the folder"),
            ([WhisperRecognitionTests.installedModel + "/model.bin"], "parley: \(WhisperRecognitionTests.installedModel)/model.bin is a file; give the folder"),
        ] {
            let refused = try ProcessRunner.parley(["models", "add"] + arguments + ["--models", models.path])
            #expect(refused.status == 1 && refused.stderr.hasPrefix(message), "\(arguments): \(refused.stderr)")
            #expect(refused.stderr.split(separator: "\n").count == 1, "\(refused.stderr)")
            #expect(try FileManager.default.contentsOfDirectory(atPath: models.path).isEmpty)
        }
        let sphinx = try ProcessRunner.parley(["models", "add", "/usr/share/pocketsphinx/model/en-us", "--locale", "en-GB",
                                               "--models", models.path])
        #expect(sphinx.status == 0, "\(sphinx.stderr)")
        let languages = try ProcessRunner.parley(["languages", "--json", "--models", models.path])
        let rows = try #require(try JSONSerialization.jsonObject(with: Data(languages.stdout.utf8)) as? [[String: Any]])
        #expect((rows.first { $0["locale"] as? String == "en-GB" }?["recognizers"] as? [String])?.contains("pocketsphinx") == true)
    }
}
