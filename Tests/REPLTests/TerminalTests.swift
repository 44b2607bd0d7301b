import Foundation
import TestSupport
import Testing

/// The REPL under a real pseudo-terminal (tmux), on fake engines through the
/// test harness, whose fake microphone is scripted through a FIFO.
@Suite("Under a terminal", .serialized)
struct TerminalTests {
    final class Harness {
        let directory: URL
        let control: String
        let session: TmuxSession
        /// The harness made its folder (for the FIFO), so it removes it.
        private let ownsDirectory: Bool

        init(_ arguments: [String] = [], directory: URL? = nil) throws {
            ownsDirectory = directory == nil
            self.directory = try directory ?? Fixtures.temporaryDirectory("parley-pty")
            control = self.directory.appendingPathComponent("control").path
            if !FileManager.default.fileExists(atPath: control) {
                guard mkfifo(control, 0o600) == 0 else { throw ProcessRunner.Failure(message: "mkfifo failed") }
            }
            session = try TmuxSession([harnessBinary] + arguments, environment: ["PARLEY_HARNESS_CONTROL": control])
        }

        deinit {
            if ownsDirectory { try? FileManager.default.removeItem(at: directory) }
        }

        /// Makes the fake microphone hear something: `partial TEXT`, `final TEXT`, `speech`.
        func hear(_ line: String) throws {
            let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: control))
            try handle.write(contentsOf: Data((line + "\n").utf8))
            try handle.close()
        }
    }

    @Test func partialResultsPrintAboveAHalfTypedLineWithoutBreakingIt() throws {
        let harness = try Harness()
        let session = harness.session
        try session.waitForPromptLine("A en-US listening>")
        try session.type("half typ")
        try session.waitForPromptLine("A en-US listening> half typ")
        try harness.hear("partial where is the")
        let screen = try session.waitFor("the partial result") { $0.contains { $0.hasSuffix(" where is the") } }
        #expect(screen.last == "A en-US listening> half typ")
        #expect(screen.dropLast().last?.hasPrefix("A ▮") == true, "the status line sits right above the prompt")
        try harness.hear("partial where is the station")
        try session.waitFor("the next partial") { $0.dropLast().last?.hasSuffix(" where is the station") == true }
        try session.press("Left", "Left")
        try session.type("X")
        try session.press("Enter")
        let after = try session.waitFor("the typed turn") { $0.contains("→ es-ES: [es-ES] half tXyp") }
        #expect(after.contains("A en-US: half tXyp (typed)"))
        #expect(!after.contains { $0.contains("where is the station") && $0.contains("where is the station where") })
    }

    @Test func ctrlCWhileListeningCancelsAndStays() throws {
        let harness = try Harness()
        let session = harness.session
        try session.waitForPromptLine("A en-US listening>")
        try harness.hear("partial hello")
        try session.waitFor("the partial") { $0.contains { $0.hasSuffix(" hello") } }
        try session.press("C-c")
        let screen = try session.waitForPromptLine("A en-US idle>")
        #expect(screen.contains("cancelled listening"))
        #expect(try session.exitStatus() == nil, "Ctrl-C does not leave")
        try session.press("Enter")
        try session.waitForPromptLine("A en-US listening>")
    }

    @Test func theEndOfTurnKeyFinishesASpokenTurn() throws {
        let harness = try Harness()
        let session = harness.session
        try session.waitForPromptLine("A en-US listening>")
        try harness.hear("speech")
        try harness.hear("partial good morning")
        try session.waitFor("the partial") { $0.contains { $0.hasSuffix(" good morning") } }
        try session.press("Enter")
        let screen = try session.waitForPromptLine("B es-ES listening>")
        #expect(screen.contains("A en-US: good morning (heard, confidence 50%)"))
        #expect(screen.contains("→ es-ES: [es-ES] good morning"))
    }

    @Test func ctrlDLeavesCleanlyAndHistoryIsRecalled() throws {
        let directory = try Fixtures.temporaryDirectory("parley-pty")
        defer { try? FileManager.default.removeItem(at: directory) }
        let history = directory.appendingPathComponent("state/history").path
        do {
            let harness = try Harness(["--history", history, "--manual"], directory: directory)
            let session = harness.session
            try session.waitForPromptLine("A en-US idle>")
            try session.type("first words")
            try session.press("Enter")
            try session.waitForPromptLine("B es-ES idle>")
            try session.press("Up")
            try session.waitForPromptLine("B es-ES idle> first words")
            try session.press("C-u", "C-d")
            try session.waitFor("the exit") { _ in (try? session.exitStatus()) != nil }
            #expect(try session.exitStatus() == 0)
        }
        #expect(try String(contentsOfFile: history, encoding: .utf8).contains("first words"))
        let again = try Harness(["--history", history, "--manual"], directory: directory)
        try again.session.waitForPromptLine("A en-US idle>")
        try again.session.press("Up")
        try again.session.waitForPromptLine("A en-US idle> first words")
    }

    @Test func tabCompletesCommands() throws {
        let harness = try Harness(["--manual"])
        let session = harness.session
        try session.waitForPromptLine("A en-US idle>")
        try session.type(":sw")
        try session.press("Tab")
        try session.waitForPromptLine("A en-US idle> :swap")
        try session.press("Enter")
        try session.waitForPromptLine("B es-ES idle>")
    }
}

extension TerminalTests {
    @Test func correctionPutsTheRecognizedTextOnTheLineForEditing() throws {
        let harness = try Harness(["--correct"])
        let session = harness.session
        try session.waitForPromptLine("A en-US listening>")
        try harness.hear("final wear is it")
        let screen = try session.waitForPromptLine("A en-US correcting> wear is it")
        #expect(screen.contains("  1 wear is it"))
        try session.press("BSpace", "BSpace")
        try session.type("that")
        try session.press("Enter")
        let after = try session.waitFor("the corrected turn") { $0.contains("→ es-ES: [es-ES] wear is that") }
        #expect(after.contains("A en-US: wear is that (heard, confidence 90%)"))
    }
}

@Suite("Under a terminal: the flip key", .serialized)
struct FlipKeyTests {
    @Test func ctrlXFRunsFlipAndKeepsTheHalfTypedLine() throws {
        let harness = try TerminalTests.Harness()
        let session = harness.session
        try session.waitForPromptLine("A en-US listening>")
        try session.type("half typ")
        try session.waitForPromptLine("A en-US listening> half typ")
        try session.press("C-x", "f")
        let screen = try session.waitFor("the flip notice") { $0.contains { $0.hasPrefix("note: nothing to flip") } }
        #expect(screen.last == "A en-US listening> half typ")
    }
}
