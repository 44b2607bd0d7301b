import Foundation
import Testing
import TestSupport

/// `parley doctor` and `parley languages` against the real installation.
@Suite struct DoctorCommandTests {
    @Test func everyPartIsFoundOnTheTestMachine() throws {
        let output = try ProcessRunner.parley(["doctor"])
        #expect(output.status == 0, "doctor failed: \(output.stderr)")
        let parts = output.stdout.split(separator: "\n").dropFirst().map { line in
            ["PulseAudio", "echo canceller", "eSpeak NG", "PocketSphinx", "Whisper", "Apertium", "readline"].first { line.hasPrefix($0) }
        }
        #expect(parts == ["PulseAudio", "echo canceller", "eSpeak NG", "PocketSphinx", "Whisper", "Apertium", "readline"])
        let echoRow = try #require(output.stdout.split(separator: "\n").first { $0.hasPrefix("echo canceller") })
        #expect(echoRow.contains(" ok ") && echoRow.contains("module-echo-cancel"), "\(echoRow)")

        #expect(output.stdout.contains("model whisper-base (SHA-256 verified); 99 languages"))
        #expect(output.stdout.contains("sink parley_speaker; source parley_mic.monitor"))
        #expect(output.stdout.contains("models: en-US"))
        #expect(output.stdout.contains("eng-spa") && output.stdout.contains("spa-eng"))
        #expect(!output.stdout.contains("MISSING"))
    }

    @Test func theApertiumRowNamesThePairsDebianOffersAndOnlyThoseNotInstalled() throws {
        let output = try ProcessRunner.parley(["doctor"])
        let row = try #require(output.stdout.split(separator: "\n").first { $0.hasPrefix("Apertium") })
        let listed = try #require(row.components(separatedBy: "more pairs): ").last).components(separatedBy: ", ")
        let modes = try FileManager.default.contentsOfDirectory(atPath: "/usr/share/apertium/modes")
        // eng-spa and fr-es are installed (their modes are there); eo-en is not.
        #expect(modes.contains("eng-spa.mode") && modes.contains("fr-es.mode") && !modes.contains("eo-en.mode"))
        #expect(!listed.contains("apertium-eng-spa") && !listed.contains("apertium-fr-es"))
        #expect(listed.contains("apertium-eo-en"))
        #expect(row.contains("(\(listed.count) more pairs)"))
    }

    @Test func failsAndNamesTheServerWhenNothingListens() throws {
        let output = try ProcessRunner.parley(["doctor", "--server", "unix:/nonexistent/parley/native"])
        #expect(output.status == 1)
        let pulseRow = output.stdout.split(separator: "\n").first { $0.hasPrefix("PulseAudio") }
        #expect(pulseRow?.contains("MISSING") == true)
        #expect(pulseRow?.contains("unix:/nonexistent/parley/native") == true)
        #expect(output.stderr.hasPrefix("parley: PulseAudio not usable"))
        #expect(output.stderr.split(separator: "\n").count == 1)
        let echoRow = output.stdout.split(separator: "\n").first { $0.hasPrefix("echo canceller") }
        #expect(echoRow?.contains("unavailable") == true, "an optional part is not MISSING: \(output.stdout)")
    }

    @Test func languagesReportsWhatIsInstalled() throws {
        let output = try ProcessRunner.parley(["languages", "--json"])
        #expect(output.status == 0, "languages failed: \(output.stderr)")
        let rows = try JSONSerialization.jsonObject(with: Data(output.stdout.utf8)) as? [[String: Any]]
        let byLocale = Dictionary(uniqueKeysWithValues: (rows ?? []).map { ($0["locale"] as? String ?? "", $0) })
        let english = try #require(byLocale["en-US"])
        #expect(english["recognition"] as? Bool == true)
        #expect(english["synthesis"] as? Bool == true)
        #expect((english["translation"] as? [String])?.contains("es-ES") == true)
        #expect(english["recognizers"] as? [String] == ["whisper", "pocketsphinx"])
        let spanish = try #require(byLocale["es-ES"])
        #expect(spanish["recognition"] as? Bool == true, "Whisper recognizes Spanish")
        #expect(spanish["recognizers"] as? [String] == ["whisper"])
        #expect(byLocale["sw"]?["recognizers"] as? [String] == ["whisper"], "a Whisper language outside the catalog is listed")
        #expect(spanish["synthesis"] as? Bool == true)
        #expect((spanish["translation"] as? [String])?.contains("en-US") == true)
        #expect(byLocale["de-DE"]?["translation"] as? [String] == [])
    }

    @Test func aUserModelFolderAddsRecognitionAndAnEmptyOneDoesNot() throws {
        let models = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: models) }
        // es-ES: the packaged model's real files (a model that loads); fr-FR: the same names, all empty.
        let english = Fixtures.englishModel
        let spanish = models.appendingPathComponent("es-ES"), french = models.appendingPathComponent("fr-FR")
        try FileManager.default.createDirectory(at: spanish, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: "\(english)/en-us", toPath: spanish.appendingPathComponent("acoustic").path)
        try FileManager.default.copyItem(atPath: "\(english)/en-us.lm.bin", toPath: spanish.appendingPathComponent("es.lm.bin").path)
        try FileManager.default.copyItem(atPath: "\(english)/cmudict-en-us.dict", toPath: spanish.appendingPathComponent("es.dict").path)
        let acoustic = try FileManager.default.contentsOfDirectory(atPath: "\(english)/en-us")
        try FileManager.default.createDirectory(at: french.appendingPathComponent("acoustic"), withIntermediateDirectories: true)
        for file in acoustic.map({ "acoustic/\($0)" }) + ["fr.lm.bin", "fr.dict"] {
            #expect(FileManager.default.createFile(atPath: french.appendingPathComponent(file).path, contents: Data()))
        }
        let output = try ProcessRunner.parley(["languages", "--json", "--models", models.path],
                                              environment: ["PARLEY_WHISPER_PYTHON": "/nonexistent/python3"])
        let rows = try JSONSerialization.jsonObject(with: Data(output.stdout.utf8)) as? [[String: Any]]
        let row = { (locale: String) in rows?.first { $0["locale"] as? String == locale } }
        #expect(row("es-ES")?["recognition"] as? Bool == true)
        #expect(row("es-ES")?["recognizers"] as? [String] == ["pocketsphinx"])
        #expect(row("fr-FR")?["recognition"] as? Bool == false, "empty model files are no model")
    }

    @Test func usageErrorsExitWith64() throws {
        let output = try ProcessRunner.parley(["languages", "--no-such-option"])
        #expect(output.status == 64)
        #expect(output.stderr.contains("--no-such-option"))
    }
}
