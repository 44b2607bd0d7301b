import ChildProcesses
import Foundation
import Locales
import Testing
import TestSupport
@testable import Pronunciation

/// Saves from real `parley dict add` processes: killed at random moments, and racing each other.
@Suite("Atomic, locked saves", .serialized)
struct ConcurrentSaveTests {
    /// Starts `parley dict add en WORD IPA` on the user directory `directory`.
    static func startAdd(_ word: String, directory: String) throws -> SpawnedProcess {
        try ProcessRunner.start([ProcessRunner.parleyBinary, "dict", "add", "en", word, "təˈmɑːtəʊ", "--dictionaries", directory])
    }

    /// The keys of the user's English dictionary, failing the test if any line is malformed.
    static func keys(_ dictionaries: PronunciationDictionaries) throws -> Set<String> {
        let document = try #require(try dictionaries.read(language: "en", layer: .user))
        #expect(document.problems.isEmpty, "\(document.problems.prefix(3))")
        return Set(document.entries.map(\.key))
    }

    /// Odd rounds aim the kill at the write (as soon as the save's temporary file appears);
    /// rounds 2, 6, 10… kill just after the rename, where the new dictionary must stay; the
    /// others kill at a random moment of a whole run. A kill counts as landing in the write only
    /// when it left the temporary file behind, and the test needs some: kills that all landed
    /// before the write would test nothing.
    @Test("a save killed at any moment, some during the write, leaves the old or the new dictionary, never a broken one")
    func killedSaves() throws {
        let dictionaries = PronunciationDictionaries(directories: try TestData.directories())
        let directory = dictionaries.directories.user
        // A large file makes the write long enough to be interrupted often.
        try dictionaries.add(entries: (0..<5_000).map { DictionaryEntry(word: "seed\($0)", ipa: "sˈiːd") }, language: "en")
        var expected = try Self.keys(dictionaries)
        var fullRun = 0.0
        var (killed, duringWrite, completed) = (0, 0, 0)
        for round in 0..<60 {
            // Measured again every ten rounds: the other suites of this target run alongside
            // and change how long a save takes.
            if round % 10 == 0 {
                let started = Date()
                #expect(ProcessRunner.waitForExit(try Self.startAdd("calibration\(round)", directory: directory)))
                fullRun = max(fullRun, Date().timeIntervalSince(started))
                expected.insert("calibration\(round)")
            }
            let word = "word\(round)"
            let process = try Self.startAdd(word, directory: directory)
            if round % 2 == 1 {
                _ = InterruptedSaves.waitForWrite(of: process, under: directory, timeout: 30)
            } else if round % 4 == 2 {
                InterruptedSaves.waitForRename(of: process, under: directory, timeout: 30)
            } else {
                Thread.sleep(forTimeInterval: Double.random(in: 0...(fullRun * 1.3)))
            }
            if case .signalled = process.tearDown(.kill) {
                killed += 1
                if InterruptedSaves.clear(under: directory) > 0 { duringWrite += 1 }
            }
            let keys = try Self.keys(dictionaries)
            if keys == expected.union([word]) {
                expected.insert(word)
                completed += 1
            } else {
                #expect(round % 4 != 2, "round \(round): killed after the rename, the new dictionary is gone")
                let intact = keys == expected
                #expect(intact, "round \(round): \(keys.count) entries, neither the old \(expected.count) nor the new \(expected.count + 1)")
            }
        }
        #expect(killed > 0 && completed > 0, "killed \(killed), completed \(completed)")
        #expect(duringWrite >= 5, "\(duringWrite) of \(killed) kills landed during the write")
    }

    @Test("eight processes adding at once never lose an entry")
    func concurrentEditors() throws {
        let dictionaries = PronunciationDictionaries(directories: try TestData.directories())
        try dictionaries.add(word: "first", ipa: "fˈɜːst", language: "en")
        let processes = try (0..<8).map { try Self.startAdd("parallel\($0)", directory: dictionaries.directories.user) }
        for process in processes { #expect(ProcessRunner.waitForExit(process)) }
        #expect(processes.allSatisfy { $0.termination == .exited(0) })
        let keys = try Self.keys(dictionaries)
        #expect(keys.count == 9)
        #expect(keys == Set(["first"] + (0..<8).map { "parallel\($0)" }))
    }
}
