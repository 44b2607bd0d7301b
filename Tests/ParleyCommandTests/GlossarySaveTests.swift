import ChildProcesses
import Foundation
import Testing
import TestSupport

/// Glossary saves from real `parley glossary` processes killed at random moments.
@Suite("Atomic glossary saves", .serialized)
struct GlossarySaveTests {
    /// Starts `parley glossary add en es TERM TARGET` on `directory`.
    static func startAdd(_ term: String, directory: String) throws -> SpawnedProcess {
        try ProcessRunner.start([ProcessRunner.parleyBinary, "glossary", "add", "en", "es", term, "objetivo", "--dictionaries", directory])
    }

    /// The glossary's sources as `parley glossary export` reads them, failing the test on any warning.
    static func sources(_ directory: String) throws -> Set<String> {
        let output = try ProcessRunner.parley(["glossary", "export", "en", "es", "--dictionaries", directory])
        #expect(output.status == 0 && output.stderr.isEmpty, "\(output.stderr)")
        return Set(output.stdout.split(separator: "\n").dropFirst().map { String($0.split(separator: ",")[0]) })
    }

    /// Odd rounds aim the kill at the write (as soon as the save's temporary file appears);
    /// rounds 2, 6, 10… kill just after the rename, where the new glossary must stay; the others
    /// kill at a random moment of a whole run. A kill counts as landing in the write only when it
    /// left the temporary file behind, and the test needs some: kills that all landed before
    /// the write would test nothing.
    @Test("a save killed at any moment, some during the write, leaves the old or the new glossary, never a broken one")
    func killedSaves() throws {
        let directory = try Fixtures.temporaryDirectory("parley-glossary-kill")
        defer { try? FileManager.default.removeItem(at: directory) }
        // A large file makes the write long enough to be interrupted often.
        let seed = directory.appendingPathComponent("seed.csv").path
        try (0..<10_000).map { "seed\($0),semilla\($0)\n" }.joined().write(toFile: seed, atomically: true, encoding: .utf8)
        #expect(try ProcessRunner.parley(["glossary", "import", "en", "es", seed, "--dictionaries", directory.path]).status == 0)
        var expected = try Self.sources(directory.path)
        var fullRun = 0.0, killed = 0, duringWrite = 0, completed = 0
        for round in 0..<20 {
            if round % 10 == 0 {
                let started = Date()
                #expect(ProcessRunner.waitForExit(try Self.startAdd("calibration\(round)", directory: directory.path)))
                fullRun = max(fullRun, Date().timeIntervalSince(started))
                expected.insert("calibration\(round)")
            }
            let term = "word\(round)"
            let process = try Self.startAdd(term, directory: directory.path)
            if round % 2 == 1 {
                _ = InterruptedSaves.waitForWrite(of: process, under: directory.path, timeout: 30)
            } else if round % 4 == 2 {
                InterruptedSaves.waitForRename(of: process, under: directory.path, timeout: 30)
            } else {
                Thread.sleep(forTimeInterval: Double.random(in: 0...(fullRun * 1.3)))
            }
            if case .signalled = process.tearDown(.kill) {
                killed += 1
                if InterruptedSaves.clear(under: directory.path) > 0 { duringWrite += 1 }
            }
            let sources = try Self.sources(directory.path)
            if sources == expected.union([term]) {
                expected.insert(term)
                completed += 1
            } else {
                #expect(round % 4 != 2, "round \(round): killed after the rename, the new glossary is gone")
                #expect(sources == expected, "round \(round): \(sources.count) entries, neither the old \(expected.count) nor the new \(expected.count + 1)")
            }
        }
        #expect(killed > 0 && completed > 0, "killed \(killed), completed \(completed)")
        #expect(duringWrite >= 3, "\(duringWrite) of \(killed) kills landed during the write")
    }
}
