import Foundation
import Testing
import TestSupport

/// `parley listen` end to end, on the human recordings (no audio server needed with --file).
@Suite(.serialized)
struct ListenCommandTests {
    /// `parley listen` with PocketSphinx, whose output these tests compare with its own tool's.
    func listen(_ arguments: [String]) throws -> ProcessRunner.Output {
        try ProcessRunner.run([ProcessRunner.parleyBinary, "listen", "--recognizer", "pocketsphinx"] + arguments)
    }

    @Test("one line per utterance, like pocketsphinx_continuous on the same file")
    func linePerUtterance() throws {
        let directory = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let joined = directory.appendingPathComponent("two.raw")
        try (Data(contentsOf: URL(fileURLWithPath: Fixtures.recording("goforward.raw")))
            + Data(contentsOf: URL(fileURLWithPath: Fixtures.recording("something.raw")))).write(to: joined)
        let reference = try ProcessRunner.run(["pocketsphinx_continuous", "-infile", joined.path, "-logfn", "/dev/null",
                                               "-fwdflat", "no", "-bestpath", "yes", "-vad_postspeech", "50"])
        let output = try listen(["--file", joined.path])
        #expect(output.status == 0)
        #expect(output.stdout == reference.stdout)
        #expect(output.stdout == "go forward ten meters\ngo somewhere and do something\n")
        #expect(output.stderr.isEmpty)
    }

    @Test("--json prints text, confidence, alternatives and word times")
    func json() throws {
        let output = try listen(["--file", Fixtures.recording("goforward.raw"), "--json"])
        #expect(output.status == 0)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(output.stdout.utf8)) as? [String: Any])
        #expect(object["text"] as? String == "go forward ten meters")
        let confidence = try #require(object["confidence"] as? Double)
        #expect(confidence > 0 && confidence <= 1)
        #expect((object["alternatives"] as? [String])?.isEmpty == false)
        let words = try #require(object["words"] as? [[String: Any]])
        #expect(words.compactMap { $0["word"] as? String } == ["go", "forward", "ten", "meters"])
        let times = words.compactMap { word in (word["start"] as? Double).flatMap { s in (word["end"] as? Double).map { (s, $0) } } }
        #expect(times.count == 4 && times.allSatisfy { $0.0 < $0.1 })
    }

    @Test("--partial prints partial results before the final line; --grammar constrains the words")
    func partialAndGrammar() throws {
        let output = try listen(["--file", Fixtures.recording("cards/002.wav"),
                                 "--grammar", Fixtures.recording("cards/cards.gram"), "--partial"])
        let lines = output.stdout.split(separator: "\n").map(String.init)
        #expect(lines.last == "four queen of clubs")
        #expect(lines.dropLast().count >= 1 && lines.dropLast().allSatisfy { $0.hasPrefix("partial: ") })
    }

    @Test("errors are one sentence on stderr with the right exit status")
    func errors() throws {
        let spanish = try listen(["--file", Fixtures.recording("goforward.raw"), "--locale", "es-ES"])
        #expect(spanish.status == 1)
        #expect(spanish.stderr == "parley: no speech model for Spanish (es-ES): PocketSphinx has models for en-US only; "
                + "Whisper serves it: drop --recognizer pocketsphinx\n")
        let live = try listen(["--server", "unix:/nonexistent/parley/native"])
        #expect(live.status == 1)
        #expect(live.stderr.hasPrefix("parley: no PulseAudio server at unix:/nonexistent/parley/native"))
        #expect(live.stderr.split(separator: "\n").count == 1)
        let missing = try listen(["--file", "/nonexistent/question.wav"])
        #expect(missing.status == 1)
        #expect(missing.stderr == "parley: cannot read audio from /nonexistent/question.wav: the file does not exist\n")
        let grammar = try listen(["--file", Fixtures.recording("goforward.raw"), "--grammar", "/nonexistent/x.gram"])
        #expect(grammar.status == 1)
        #expect(grammar.stderr == "parley: cannot read the grammar file /nonexistent/x.gram; give a JSGF grammar saved as UTF-8 text\n")
        let both = try listen(["--file", "x.wav", "--hint", "confirmation", "--grammar", "x.gram"])
        #expect(both.status == 64)

        // A grammar is PocketSphinx's alone: not with --recognizer whisper, and not for a locale
        // PocketSphinx has no model for (said as that, not as a list of Whisper's languages).
        let cards = Fixtures.recording("cards/cards.gram")
        let whisperChosen = try ProcessRunner.parley(["listen", "--file", Fixtures.recording("goforward.raw"), "--grammar", cards,
                                                      "--recognizer", "whisper"])
        #expect(whisperChosen.status == 64)
        #expect(whisperChosen.stderr.hasPrefix("Error: --grammar is for PocketSphinx, which --recognizer whisper leaves out"),
                "\(whisperChosen.stderr)")
        let unmodelled = try ProcessRunner.parley(["listen", "--file", Fixtures.recording("goforward.raw"), "--grammar", cards,
                                                   "--locale", "es-ES"])
        #expect(unmodelled.status == 1)
        #expect(unmodelled.stderr == "parley: a --grammar needs PocketSphinx, which has no model for es-ES (it has en-US); "
                + "without --grammar, Whisper hears es-ES\n")
    }

    @Test("from the microphone: a recording played into it is recognized, partial results first")
    func listensLive() throws {
        let microphone = try LoopbackDevice(label: "listen")
        let child = try ChildProcess.parley(
            ["listen", "--recognizer", "pocketsphinx", "--source", microphone.monitor, "--partial", "--utterances", "1"],
            environment: ["PARLEY_LOG": "info"])
        #expect(child.waitFor { _, stderr in stderr.contains("listening for en-US speech") })
        try microphone.play(Fixtures.recording("goforward.raw"), raw: true)
        #expect(child.wait(seconds: 30) == 0, "listen failed: \(child.stderr)")
        let lines = child.stdout.split(separator: "\n").map(String.init)
        #expect(lines.last == "go forward ten meters")
        #expect(lines.dropLast().contains { $0.hasPrefix("partial: ") })
        #expect(lines.dropLast().allSatisfy { $0.hasPrefix("partial: ") })
    }

    @Test("from the microphone: Ctrl-C leaves cleanly")
    func interruptedLiveListening() throws {
        let microphone = try LoopbackDevice(label: "listen")
        let child = try ChildProcess.parley(["listen", "--recognizer", "pocketsphinx", "--source", microphone.monitor], environment: ["PARLEY_LOG": "info"])
        #expect(child.waitFor { _, stderr in stderr.contains("listening for en-US speech") })
        child.signal(SIGINT)
        #expect(child.wait(seconds: 10) == 0)
        #expect(child.stdout.isEmpty)
    }
}
