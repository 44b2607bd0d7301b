import Foundation
import Testing
import TestSupport
import TranslationReference

/// The real `parley dialog` under a real terminal (tmux), typed-only but for the
/// listening test, with real Apertium and espeak-ng on the test audio server: readline
/// editing and history, Ctrl-C in each state, Ctrl-D, read back from the screen and the transcript.
@Suite("parley dialog under a terminal", .serialized)
struct DialogueTerminalTests {
    /// One `parley dialog --typed-only` in tmux, with its own state directory and transcript.
    final class Terminal {
        let directory: URL
        let transcript: String
        let session: TmuxSession

        init(_ extra: [String] = [], typedOnly: Bool = true) throws {
            directory = try Fixtures.temporaryDirectory("parley-tty")
            transcript = directory.appendingPathComponent("talk.jsonl").path
            let environment = ["PULSE_SERVER": try TestAudioServer.address,
                               "XDG_STATE_HOME": directory.appendingPathComponent("state").path]
            let input = typedOnly ? ["--typed-only"] : ["--source", TestAudioServer.microphoneSource]
            let arguments = ["dialog", "en-US", "es-ES", "--recognizer", "pocketsphinx",
                             "--transcript", transcript, "--sink", TestAudioServer.speakerSink] + input + extra
            session = try TmuxSession([ProcessRunner.parleyBinary] + arguments, environment: environment)
        }

        deinit { try? FileManager.default.removeItem(at: directory) }

        /// Presses Ctrl-D and waits for the program to exit; its status.
        func leave() throws -> Int32? {
            try session.press("C-d")
            try session.waitFor("the exit") { _ in (try? session.exitStatus()) != nil }
            return try session.exitStatus()
        }

        /// The transcript's turns, (side, text, translation).
        func turns() throws -> [(side: String, text: String, translation: String)] {
            try String(contentsOfFile: transcript, encoding: .utf8).split(separator: "\n").map { line in
                let entry = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
                return (entry["side"] as? String ?? "", entry["text"] as? String ?? "", entry["translation"] as? String ?? "")
            }
        }
    }

    /// The row that shows the translation of a turn into `locale`, without the unknown-word note.
    static func translationRow(_ screen: [String], _ locale: String) -> String? {
        screen.last { $0.hasPrefix("→ \(locale): ") }.map {
            String($0.dropFirst("→ \(locale): ".count).prefix { $0 != "(" }).trimmingCharacters(in: .whitespaces)
        }
    }

    @Test func editedLinesAreTranslatedRecalledAndCtrlDLeavesWithTheTranscriptWritten() throws {
        let terminal = try Terminal(["--mute"])
        let session = terminal.session
        try session.waitForPromptLine("A en-US idle>")
        try session.type("the trian station")
        try session.press("C-a")
        try session.type("where is ")
        try session.press("M-f", "M-f", "BSpace", "BSpace", "BSpace")  // after "trian": "tr"
        try session.type("ain")
        try session.waitForPromptLine("A en-US idle> where is the train station")
        try session.press("Enter")
        let screen = try session.waitForPromptLine("B es-ES idle>")
        #expect(screen.contains("A en-US: where is the train station (typed)"))
        #expect(Self.translationRow(screen, "es-ES") == (try ApertiumReference.cleaned("eng-spa", "where is the train station")))

        try session.press("Up")
        try session.waitForPromptLine("B es-ES idle> where is the train station")
        try session.press("C-u")
        try session.type("buenos días")
        try session.press("Enter")
        try session.waitForPromptLine("A en-US idle>")
        try session.press("Up")
        try session.waitForPromptLine("A en-US idle> buenos días")
        try session.press("Up")
        try session.waitForPromptLine("A en-US idle> where is the train station")
        try session.press("C-u")

        #expect(try terminal.leave() == 0)
        let turns = try terminal.turns()
        #expect(turns.map(\.text) == ["where is the train station", "buenos días"])
        #expect(turns.map(\.side) == ["A", "B"])
        #expect(turns.last?.translation == (try ApertiumReference.cleaned("spa-eng_US", "buenos días")))
    }

    @Test func ctrlCAtTheIdlePromptClearsTheLineAndStays() throws {
        let terminal = try Terminal(["--mute"])
        let session = terminal.session
        try session.waitForPromptLine("A en-US idle>")
        try session.type("never said")
        try session.waitForPromptLine("A en-US idle> never said")
        try session.press("C-c")
        try session.waitForPromptLine("A en-US idle>")
        #expect(try session.exitStatus() == nil, "Ctrl-C at the prompt does not leave")
        try session.type("good night")
        try session.press("Enter")
        let screen = try session.waitForPromptLine("B es-ES idle>")
        #expect(screen.contains("A en-US: good night (typed)"))
        #expect(!screen.contains { $0.contains("A en-US: never said") })
        #expect(try terminal.leave() == 0)
        #expect(try terminal.turns().map(\.text) == ["good night"])
    }

    @Test func ctrlCWhileListeningStopsListeningAndEnterListensAgain() throws {
        let terminal = try Terminal(["--mute"], typedOnly: false)
        let session = terminal.session
        try session.waitForPromptLine("A en-US listening>")
        try session.press("C-c")
        let screen = try session.waitForPromptLine("A en-US idle>")
        #expect(screen.contains("cancelled listening"))
        #expect(try session.exitStatus() == nil)
        try session.press("Enter")
        try session.waitForPromptLine("A en-US listening>")
        try session.type("typed while listening")
        try session.press("Enter")
        let after = try session.waitFor("the typed turn") { $0.last?.hasPrefix("B es-ES ") == true }
        #expect(after.contains("A en-US: typed while listening (typed)"))
        #expect(try terminal.leave() == 0)
        #expect(try terminal.turns().map(\.text) == ["typed while listening"])
    }

    @Test func ctrlCWhileSpeakingCancelsTheSpeechAndKeepsTheTurn() throws {
        let terminal = try Terminal()
        let session = terminal.session
        try session.waitForPromptLine("A en-US idle>")
        let long = "I would like to buy a ticket to Madrid for tomorrow morning, and one back on Sunday evening."
        try session.type(long)
        try session.press("Enter")
        try session.waitForPromptLine("B es-ES speaking>")
        try session.press("C-c")
        let screen = try session.waitForPromptLine("B es-ES idle>")
        #expect(screen.contains("cancelled speaking"))
        #expect(try session.exitStatus() == nil)
        #expect(try terminal.leave() == 0)
        let turns = try terminal.turns()
        #expect(turns.map(\.text) == [long], "the turn was translated before it was spoken, so it stays")
        #expect(turns.first?.translation == (try ApertiumReference.cleaned("eng-spa", long)))
    }

    @Test func ctrlCWhileTranslatingCancelsTheTurnAndTheNextTurnGetsItsOwnTranslation() throws {
        let terminal = try Terminal(["--mute"])
        let session = terminal.session
        try session.waitForPromptLine("A en-US idle>")
        // Apertium's processes are stopped, so the turn stays in translation until Ctrl-C.
        let program = try session.programIdentifier()
        // All of them: the pipelines start one after another, and one caught before the next
        // had started left the other to translate (a fresh-clone run read "Buenos días").
        var (stages, since) = ([Int32](), Date())
        try session.waitFor("parley's Apertium pipelines, none started for 1 s") { _ in
            let now = (try? Self.apertiumStages(under: program)) ?? []
            if now != stages { (stages, since) = (now, Date()) }
            return !stages.isEmpty && Date().timeIntervalSince(since) >= 1
        }
        stages.forEach { kill($0, SIGSTOP) }
        try session.type("good morning")
        try session.press("Enter")
        try session.waitForPromptLine("A en-US translating>")
        try session.press("C-c")
        let screen = try session.waitForPromptLine("A en-US idle>")
        stages.forEach { kill($0, SIGCONT) }
        #expect(screen.contains("cancelled translation"))
        #expect(try session.exitStatus() == nil)
        try session.type("thank you very much")
        try session.press("Enter")
        let after = try session.waitForPromptLine("B es-ES idle>")
        #expect(Self.translationRow(after, "es-ES") == (try ApertiumReference.cleaned("eng-spa", "thank you very much")))
        #expect(try terminal.leave() == 0)
        #expect(try terminal.turns().map(\.text) == ["thank you very much"], "the cancelled turn is not written")
    }

    /// The Apertium, lttoolbox and lrx processes below `pid`.
    static func apertiumStages(under pid: Int32) throws -> [Int32] {
        let children = (try? String(contentsOfFile: "/proc/\(pid)/task/\(pid)/children", encoding: .utf8)) ?? ""
        return try children.split(separator: " ").compactMap { Int32($0) }.flatMap { child -> [Int32] in
            let name = (try? String(contentsOfFile: "/proc/\(child)/comm", encoding: .utf8)) ?? ""
            let own = ["apertium", "lt-proc", "lrx-proc", "cg-proc"].contains { name.hasPrefix($0) } ? [child] : []
            return own + (try apertiumStages(under: child))
        }
    }
}
