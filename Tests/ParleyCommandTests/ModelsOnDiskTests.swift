import Foundation
import Testing
import TestSupport

/// Models as they are found on disk: a bad one makes only itself unavailable, and what an
/// interrupted `parley models add` left is never listed and is cleaned at the next start.
@Suite("parley models on disk", .serialized)
struct ModelsOnDiskTests {
    /// A process id no system reaches, for leftovers of a process that is gone.
    static let goneProcess = "2147483646"

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
        // A conversation starts, and ends at the end of its input.
        let dialog = try ProcessRunner.parley(["dialog", "--models", models.path], input: Data())
        #expect(dialog.status == 0 && dialog.stderr.contains("the Whisper model a-bad is not used: \(problem)"), "\(dialog.stderr)")
    }

    @Test("what an interrupted add left is never listed: a staging folder is removed, a replaced model put back")
    func interruptedAddsAreCleaned() throws {
        let root = try Fixtures.temporaryDirectory("parley-leftovers")
        defer { try? FileManager.default.removeItem(at: root) }
        let models = root.appendingPathComponent("models")
        for entry in ["kept.adding-\(Self.goneProcess)", ".new.adding-\(Self.goneProcess)", ".back.replaced-\(Self.goneProcess)",
                      "gone", ".gone.replaced-\(Self.goneProcess)"] {
            try ModelFixtures.linked(at: models.appendingPathComponent(entry))
        }
        let listed = try ProcessRunner.parley(["models", "--json", "--models", models.path])
        #expect(listed.status == 0, "\(listed.stderr)")
        let rows = try JSONSerialization.jsonObject(with: Data(listed.stdout.utf8)) as? [[String: Any]] ?? []
        #expect(Set(rows.filter { $0["engine"] as? String == "whisper" }.compactMap { $0["name"] as? String }) == ["back", "gone"],
                "\(listed.stdout)")
        #expect(try ModelFixtures.entries(models) == ["back", "gone"])

        // A real add, killed while it works.
        let source = root.appendingPathComponent("source")
        try ModelFixtures.copy(to: source)
        let adding = try ChildProcess.parley(["models", "add", source.path, "--name", "killed", "--models", models.path])
        var staged = false
        for _ in 0..<6_000 where !staged {
            staged = try ModelFixtures.entries(models).contains { $0.contains(".adding-") }
            if !staged { usleep(10_000) }
        }
        #expect(staged, "the add made no staging folder: \(adding.stderr)")
        adding.signal(SIGKILL)
        _ = adding.wait()
        let after = try ProcessRunner.parley(["models", "--json", "--models", models.path])
        let names = (try JSONSerialization.jsonObject(with: Data(after.stdout.utf8)) as? [[String: Any]] ?? []).compactMap { $0["name"] as? String }
        #expect(!names.contains { $0.contains("killed") }, "\(after.stdout)")
        #expect(try ModelFixtures.entries(models) == ["back", "gone"])
    }
}
