import Foundation
import Testing
import TestSupport

/// Models as they are found on disk: a bad one makes only itself unavailable.
@Suite("parley models on disk", .serialized)
struct ModelsOnDiskTests {
    @Test("a model whose config.json lists language token -1 is said unusable; every command goes on with the others")
    func badModelOnDiskCrashesNothing() throws {
        let models = try Fixtures.temporaryDirectory("parley-bad-model")
        defer { try? FileManager.default.removeItem(at: models) }
        let bad = models.appendingPathComponent("a-bad")
        try ModelFixtures.linked(at: bad, except: ["config.json"])
        try ModelFixtures.writeConfiguration(to: bad, languageIDs: [-1])
        let problem = "\(bad.path)/config.json lists language token -1, which \(bad.path)/vocabulary.txt does not have"

        // Alone, it is no Whisper model: said in one sentence, and nothing crashes.
        let languages = try ProcessRunner.parley(["languages", "--json", "--models", models.path])
        #expect(languages.status == 0, "\(languages.stderr)")
        let alone = try ProcessRunner.parley(["listen", "--recognizer", "whisper", "--models", models.path,
                                              "--file", Fixtures.recording("goforward.raw")])
        #expect(alone.status == 1 && alone.stderr.contains("a usable Whisper model (\(problem)) is not installed"), "\(alone.stderr)")

        try ModelFixtures.linked(at: models.appendingPathComponent("good"))
        let listed = try ProcessRunner.parley(["models", "--json", "--models", models.path])
        #expect(listed.status == 0, "\(listed.stderr)")
        let rows = try JSONSerialization.jsonObject(with: Data(listed.stdout.utf8)) as? [[String: Any]] ?? []
        let row = rows.first { $0["name"] as? String == "a-bad" }
        #expect(row?["verified"] as? String == "NO: \(problem)", "\(listed.stdout)")
        #expect((rows.first { $0["name"] as? String == "good" }?["languages"] as? [String])?.count == 99, "\(listed.stdout)")

        let heard = try ProcessRunner.parley(["listen", "--recognizer", "whisper", "--models", models.path,
                                              "--file", Fixtures.recording("goforward.raw")])
        #expect(heard.status == 0 && heard.stdout == "Go forward 10 meters.\n", "\(heard.stderr)")
        #expect(heard.stderr.contains("parley: the Whisper model a-bad is not used: \(problem)\n"), "\(heard.stderr)")
        let doctor = try ProcessRunner.parley(["doctor", "--models", models.path])
        #expect(doctor.stdout.contains("model good (not pinned); 99 languages") && doctor.stdout.contains("; not used: \(problem)"),
                "\(doctor.stdout)\(doctor.stderr)")
        let again = try ProcessRunner.parley(["languages", "--json", "--models", models.path])
        #expect(again.status == 0, "\(again.stderr)")
    }
}
