import Foundation
import TestSupport
import TranslationReference
import Testing

/// The built test harness: the REPL on fake engines (see Tests/REPLHarness).
let harnessBinary = (ProcessRunner.parleyBinary as NSString).deletingLastPathComponent + "/parley-repl-harness"

@Suite("Without a terminal")
struct PipeModeTests {
    /// The lines that answer input lines: notes about a side, errors, side A's turns.
    static func answers(in stdout: String) -> [String] {
        stdout.split(separator: "\n").map(String.init)
            .filter { $0.hasPrefix("note: side") || $0.hasPrefix("error:") || $0.hasPrefix("A en-US:") }
    }

    private func environment(_ state: URL) -> [String: String] {
        var environment = ProcessInfo.processInfo.environment
        environment["NO_COLOR"] = nil
        environment["XDG_STATE_HOME"] = state.path
        return environment
    }

    @Test func eachLineIsATurnForTheSideWhoseTurnItIsAndOutputIsPlain() throws {
        let directory = try Fixtures.temporaryDirectory("parley-pipe")
        defer { try? FileManager.default.removeItem(at: directory) }
        let transcript = directory.appendingPathComponent("t.jsonl").path
        let input = "Where is the station?\n:rate a 0.7\nEstá allí.\n:swap\nThanks, bye"
        let output = try ProcessRunner.run([harnessBinary, "--transcript", transcript], input: Data(input.utf8),
                                           environment: environment(directory))
        #expect(output.status == 0, "\(output.stderr)")
        #expect(!output.stdout.contains("\u{1B}"), "no escape codes on a pipe")
        let lines = output.stdout.split(separator: "\n").map(String.init)
        #expect(lines.contains("A en-US: Where is the station? (typed)"))
        #expect(lines.contains("→ es-ES: [es-ES] Where is the station?"))
        #expect(lines.contains("B es-ES: Está allí. (typed)"))
        #expect(lines.contains("note: side A is spoken to at rate 0.7"))
        let turns = try String(contentsOfFile: transcript, encoding: .utf8).split(separator: "\n")
            .map { try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
        #expect(turns.map { $0?["text"] as? String } == ["Where is the station?", "Está allí.", "Thanks, bye"])
        #expect(turns.map { $0?["side"] as? String } == ["A", "B", "B"], "after :swap the last line is B's again")
    }

    @Test("over a pipe, each line's answer comes before the next line's, whether the conversation or the REPL gives it")
    func answersKeepTheOrderOfTheLines() throws {
        let directory = try Fixtures.temporaryDirectory("parley-pipe")
        defer { try? FileManager.default.removeItem(at: directory) }
        // A note comes from the conversation's events; a line that is not a command is answered by the REPL itself.
        let input = ":rate a 0.7\n:swp\n:rate b 0.3\n:swpp\nHello there\n:rate a 0.9\n:swp\n"
        let output = try ProcessRunner.run([harnessBinary], input: Data(input.utf8),
                                           environment: environment(directory))
        #expect(output.status == 0, "\(output.stderr)")
        let answers = Self.answers(in: output.stdout)
        #expect(answers == [
            "note: side A is spoken to at rate 0.7",
            "error: unknown command ':swp'; did you mean :swap? (:help lists them)",
            "note: side B is spoken to at rate 0.3",
            "error: unknown command ':swpp'; did you mean :swap? (:help lists them)",
            "A en-US: Hello there (typed)",
            "note: side A is spoken to at rate 0.9",
            "error: unknown command ':swp'; did you mean :swap? (:help lists them)",
        ])
    }

    @Test("a line that is not UTF-8 is refused in its place in the order, and the turn stays with its side")
    func aLineThatIsNotTextIsRefused() throws {
        let directory = try Fixtures.temporaryDirectory("parley-pipe")
        defer { try? FileManager.default.removeItem(at: directory) }
        let transcript = directory.appendingPathComponent("t.jsonl").path
        var input = Data(":rate a 0.7\n".utf8)
        input += Data([0x63, 0x61, 0x66, 0xE9, 0x0A])   // "café" in Latin-1
        input += Data("Hello there\n".utf8)
        let output = try ProcessRunner.run([harnessBinary, "--transcript", transcript], input: input,
                                           environment: environment(directory))
        #expect(output.status == 0, "\(output.stderr)")
        let answers = Self.answers(in: output.stdout)
        #expect(answers == [
            "note: side A is spoken to at rate 0.7",
            "error: a line of the input is not UTF-8 text and was not taken; convert it to UTF-8 first (for example iconv -f LATIN1 -t UTF-8)",
            "A en-US: Hello there (typed)",
        ])
        let turns = try String(contentsOfFile: transcript, encoding: .utf8).split(separator: "\n")
        #expect(turns.count == 1 && !turns[0].contains("\u{FFFD}"))
    }

    @Test func parleyTranslatesTypedLinesLikeApertiumAndWritesTheTranscript() throws {
        let directory = try Fixtures.temporaryDirectory("parley-pipe")
        defer { try? FileManager.default.removeItem(at: directory) }
        let transcript = directory.appendingPathComponent("t.jsonl").path
        let english = "Where is the train station?"
        // The dialogue speaks Apertium's text after the Spanish clean-up (¿ … ?).
        let reference = try ApertiumReference.cleaned("eng-spa", english)
        let output = try ProcessRunner.parley(["--no-history", "--typed-only", "--transcript", transcript],
                                              input: Data("\(english)\nMuchas gracias.\n".utf8),
                                              environment: ["XDG_STATE_HOME": directory.path])
        #expect(output.status == 0, "\(output.stderr)")
        #expect(output.stdout.split(separator: "\n").contains { $0.hasPrefix("→ es-ES: \(reference)") })
        #expect(!output.stdout.contains("\u{1B}"))
        let turns = try String(contentsOfFile: transcript, encoding: .utf8).split(separator: "\n")
            .map { try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
        try #require(turns.count == 2)
        #expect(turns[0]?["side"] as? String == "A" && turns[0]?["input"] as? String == "typed")
        #expect(turns[0]?["text"] as? String == english && turns[0]?["translation"] as? String == reference)
        #expect(turns[1]?["side"] as? String == "B" && turns[1]?["target_locale"] as? String == "en-US")
        let back = try #require(turns[1]?["translation"] as? String)
        #expect(!back.isEmpty && back != "Muchas gracias.")
    }

    @Test func parleyCommandsOverAPipe() throws {
        let directory = try Fixtures.temporaryDirectory("parley-pipe")
        defer { try? FileManager.default.removeItem(at: directory) }
        let output = try ProcessRunner.parley(["--no-history", "--no-transcript", "--typed-only"], input: Data(":swp\n:b fr\n:languages\n".utf8),
                                              environment: ["XDG_STATE_HOME": directory.path])
        #expect(output.status == 0, "\(output.stderr)")
        let lines = output.stdout.split(separator: "\n").map(String.init)
        #expect(lines.contains("error: unknown command ':swp'; did you mean :swap? (:help lists them)"))
        #expect(lines.contains("note: side B now speaks fr-FR"))
        #expect(lines.contains { $0.hasPrefix("locale") && $0.contains("recognition") }, "the :languages table")
        #expect(!output.stdout.contains("\u{1B}"))
        #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent("parley/transcripts").path))
    }

    @Test("a conversation without a turn leaves no empty default transcript; a turn, or a file the person named, is kept")
    func anEmptyDefaultTranscriptIsNotKept() throws {
        let directory = try Fixtures.temporaryDirectory("parley-pipe")
        defer { try? FileManager.default.removeItem(at: directory) }
        let transcripts = directory.appendingPathComponent("parley/transcripts").path
        let environment = ["XDG_STATE_HOME": directory.path]
        let quiet = try ProcessRunner.parley(["--no-history", "--typed-only", "--mute"], input: Data(":languages\n".utf8),
                                             environment: environment)
        #expect(quiet.status == 0, "\(quiet.stderr)")
        #expect((try? FileManager.default.contentsOfDirectory(atPath: transcripts)) == [], "no empty transcript is left")
        let named = directory.appendingPathComponent("named.jsonl").path
        let namedRun = try ProcessRunner.parley(["--no-history", "--typed-only", "--mute", "--transcript", named],
                                                input: Data(":languages\n".utf8), environment: environment)
        #expect(namedRun.status == 0, "\(namedRun.stderr)")
        #expect(FileManager.default.fileExists(atPath: named), "a file the person named is theirs, empty or not")
        let talk = try ProcessRunner.parley(["--no-history", "--typed-only", "--mute"], input: Data("Good morning.\n".utf8),
                                            environment: environment)
        #expect(talk.status == 0, "\(talk.stderr)")
        let files = try FileManager.default.contentsOfDirectory(atPath: transcripts)
        try #require(files.count == 1)
        let text = try String(contentsOfFile: "\(transcripts)/\(files[0])", encoding: .utf8)
        #expect(text.contains("\"text\":\"Good morning.\""))
    }

    /// A typed-only dialogue over a pipe with its own dictionaries and state, fed `input`.
    private func dialogue(with dictionaries: String, state: URL, input: String) throws -> ProcessRunner.Output {
        try ProcessRunner.parley(["--no-history", "--no-transcript", "--typed-only", "--dictionaries", dictionaries],
                                 input: Data(input.utf8), environment: ["XDG_STATE_HOME": state.path])
    }

    @Test func dictCommandsRunLikeParleyDict() throws {
        let directory = try Fixtures.temporaryDirectory("parley-pipe")
        defer { try? FileManager.default.removeItem(at: directory) }
        let dictionaries = directory.appendingPathComponent("dict").path
        let output = try dialogue(with: dictionaries, state: directory, input: ":dict add en zorblax ˈzɔːblæks\n:dict lookup en zorblax\n")
        #expect(output.status == 0, "\(output.stderr)")
        let direct = try ProcessRunner.parley(["dict", "lookup", "en", "zorblax", "--dictionaries", dictionaries])
        #expect(direct.status == 0 && direct.stdout.contains("ˈzɔːblæks"))
        #expect(output.stdout.contains(direct.stdout.trimmingCharacters(in: .whitespacesAndNewlines)))
    }

    @Test(":dict and :glossary mistakes are one error line in the REPL's words, and change nothing")
    func dictionaryMistakesAreOneLine() throws {
        let directory = try Fixtures.temporaryDirectory("parley-pipe")
        defer { try? FileManager.default.removeItem(at: directory) }
        let dictionaries = directory.appendingPathComponent("dict").path
        let output = try dialogue(with: dictionaries, state: directory, input: ":glossary add en es\n:dict add en zorblax notipa!!\n:dict lookup en zorblax\n")
        #expect(output.status == 0, "\(output.stderr)")
        let lines = output.stdout.split(separator: "\n").map(String.init)
        #expect(lines.contains("error: Missing expected argument '<source>'; usage: :glossary add <from> <to> <source> <target> [--phrase]"))
        let direct = try ProcessRunner.parley(["dict", "add", "en", "zorblax", "notipa!!", "--dictionaries", dictionaries])
        let reason = try #require(direct.stderr.split(separator: "\n").first.map { String($0.dropFirst("parley: ".count)) })
        #expect(direct.status != 0 && lines.contains("error: \(reason)"), "the command's own sentence, as a REPL error")
        #expect(!lines.contains { $0.hasPrefix("Help:") || $0.hasPrefix("Usage:") || $0.hasPrefix("parley:") || $0.contains("--help") })
        let lookup = try #require(lines.first { $0.hasPrefix("zorblax\t") }, "the lookup after the refused add")
        #expect(!lookup.contains("notipa"), "the refused entry was not added")
    }

    @Test func parleyRefusesAnUnknownLocaleInOneSentence() throws {
        let output = try ProcessRunner.parley(["dialog", "en", "vulcan", "--no-history"], input: Data())
        #expect(output.status == 1)
        #expect(output.stderr == "parley: unknown locale 'vulcan' (`parley languages` lists them)\n")
    }

    @Test func parleyRejectsAnEndpointOutOfRange() throws {
        let output = try ProcessRunner.parley(["--endpoint-ms", "5"], input: Data())
        #expect(output.status == 64)
        #expect(output.stderr.contains("--endpoint-ms must be between 50 and 10000 milliseconds"))
    }

    @Test("a yield silence shorter than the endpoint, or out of range, is refused in one sentence")
    func parleyRejectsAYieldBelowTheEndpoint() throws {
        for arguments in [["--endpoint-ms", "800", "--yield-ms", "600"], ["--yield-ms", "20000"]] {
            let output = try ProcessRunner.parley(["dialog"] + arguments, input: Data())
            #expect(output.status == 64)
            #expect(output.stderr.contains("--yield-ms must be between --endpoint-ms"), "\(output.stderr)")
        }
    }

    @Test("a duck out of range is refused in one sentence that names the range", arguments: ["-3", "41", "nan"])
    func parleyRejectsADuckOutOfRange(value: String) throws {
        let output = try ProcessRunner.parley(["dialog", "--duck-db", value], input: Data())
        #expect(output.status == 64)
        #expect(output.stderr.contains("--duck-db must be between 0 (no ducking) and 40 decibels"), "\(output.stderr)")
        #expect(output.stderr.split(separator: "\n").count <= 3, "one sentence and the usage: \(output.stderr)")
    }

    @Test func sigtermSavesTheTranscriptAndLeaves() throws {
        let directory = try Fixtures.temporaryDirectory("parley-pipe")
        defer { try? FileManager.default.removeItem(at: directory) }
        let transcript = directory.appendingPathComponent("t.jsonl").path
        let child = try ChildProcess([harnessBinary, "--transcript", transcript])
        child.send("one line")
        let deadline = Date().addingTimeInterval(10)
        while (try? String(contentsOfFile: transcript, encoding: .utf8))?.contains("one line") != true, Date() < deadline {
            Thread.sleep(forTimeInterval: 0.01)
        }
        child.signal(SIGTERM)
        #expect(child.wait(seconds: 10) == 0, "the harness did not leave on SIGTERM with status 0")
        #expect(try String(contentsOfFile: transcript, encoding: .utf8).split(separator: "\n").count == 1)
    }

    /// Closing the terminal (SIGHUP) or SIGTERM while a translation is being spoken
    /// keeps that turn: it is written, and the program leaves with status 0.
    @Test(arguments: [SIGTERM, SIGHUP])
    func aSignalWhileSpeakingWritesThatTurn(_ signal: Int32) throws {
        let directory = try Fixtures.temporaryDirectory("parley-pipe")
        defer { try? FileManager.default.removeItem(at: directory) }
        let transcript = directory.appendingPathComponent("t.jsonl").path
        let child = try ChildProcess([harnessBinary, "--transcript", transcript, "--hold-playback"])
        child.send("one line")
        #expect(child.waitFor(seconds: 10) { stdout, _ in stdout.contains("[es-ES] one line") })
        child.signal(signal)
        #expect(child.wait(seconds: 10) == 0, "the harness did not leave on the signal with status 0")
        let lines = (try? String(contentsOfFile: transcript, encoding: .utf8))?.split(separator: "\n") ?? []
        #expect(lines.count == 1 && lines.first?.contains(#""text":"one line""#) == true)
    }
}
