import Foundation
import Testing
import TestSupport

/// Recognition by a real Wyoming server (wyoming-faster-whisper with Parley's Whisper model,
/// started on 127.0.0.1 for the suite), through `parley listen`; and the servers that fail it.
@Suite("Wyoming recognition", .serialized)
struct WyomingRecognitionTests {
    func listen(_ recognizer: String, _ arguments: [String]) throws -> ProcessRunner.Output {
        try ProcessRunner.parley(["listen", "--recognizer", recognizer] + arguments)
    }

    @Test("the human recordings through a Wyoming server: each at most one error more than stock Whisper, one in all")
    func humanRecordings() throws {
        let server = try WyomingTestServer()
        defer { server.stop() }
        let recordings = WhisperRecognitionTests.recordings
        try #require(recordings.count == 7)
        var errors = 0, stock = 0, heard: [String] = []
        for (name, reference) in recordings {
            let output = try listen(server.address, ["--file", Fixtures.recording(name)])
            #expect(output.status == 0, "\(name): \(output.stderr)")
            let text = output.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
            heard.append(text)
            let (own, stocks) = (SpokenWords.errors(text, reference: reference), try StockReadings.whisperErrors(name))
            #expect(own <= stocks + 1, "\(name): \(own) errors, stock Whisper makes \(stocks): '\(text)'")
            (errors, stock) = (errors + own, stock + stocks)
        }
        #expect(errors <= stock + 1, "\(errors) errors (stock Whisper: \(stock)): \(heard)")
        #expect(server.isRunning, "the server is still up after \(recordings.count) utterances: \(server.log)")
    }

    @Test("doctor: a row per server and voice given, with what it serves, its round trip and a voice's first audio; one that refuses fails the check")
    func doctor() throws {
        let (server, voice) = (try WyomingTestServer(), try WyomingTestServer(voice: true))
        defer {
            server.stop()
            voice.stop()
        }
        let gone = "wyoming:tcp://127.0.0.1:\(try WyomingTestServer.freePort())"
        let output = try ProcessRunner.parley(["doctor", "--recognizer", server.address, "--recognizer", gone,
                                               "--voice", voice.joe, "--voice", "\(voice.address)#nobody"])
        #expect(output.status == 1)
        let rows = output.stdout.split(separator: "\n").filter { $0.hasPrefix("Wyoming") }
        try #require(rows.count == 4, "\(output.stdout)")
        #expect(rows[0].contains(" ok ") && rows[0].contains("faster-whisper 3.8.1 (whisper-base)") && rows[0].contains("round trip"),
                "\(rows[0])")
        #expect(rows[1].contains("MISSING") && rows[1].contains("refused the connection"), "\(rows[1])")
        #expect(rows[2].contains(" ok ") && rows[2].contains("en_US-joe-medium of") && rows[2].contains("ms after synthesize"), "\(rows[2])")
        #expect(rows[3].contains("MISSING") && rows[3].contains("it has no voice nobody"), "\(rows[3])")
        #expect(output.stderr.contains("not usable: start the server, or reach it through an SSH tunnel"), "\(output.stderr)")
    }

    @Test("say --voice with a Wyoming voice: the server's audio, written as the speaker's format; a voice it lacks, one sentence")
    func say() throws {
        let voice = try WyomingTestServer(voice: true)
        defer { voice.stop() }
        let directory = try Fixtures.temporaryDirectory("parley-wyoming-say")
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("joe.wav").path
        let output = try ProcessRunner.parley(["say", "--voice", voice.joe, "--out", path, "I want a coffee with milk."])
        #expect(output.status == 0, "\(output.stderr)")
        #expect(output.stdout.contains("22050 Hz, mono s16") && output.stdout.contains("to \(path)"), "\(output.stdout)")
        let data = try Data(contentsOf: URL(fileURLWithPath: path)).dropFirst(44)  // the canonical WAV header
        let samples = stride(from: data.startIndex, to: data.endIndex - 1, by: 2).map {
            Int16(bitPattern: UInt16(data[$0]) | UInt16(data[$0 + 1]) << 8)
        }
        #expect(audibleSeconds(samples) > 0.8, "the file holds speech")
        let missing = try ProcessRunner.parley(["say", "--voice", "\(voice.address)#nobody", "Hello."])
        #expect(missing.status == 1)
        #expect(missing.stderr.hasPrefix("parley: the voice \(voice.address)#nobody cannot speak: the Wyoming server") &&
                missing.stderr.contains("has no voice nobody"), "\(missing.stderr)")
    }

    /// A room of three, a headset each, its recognition shared by two servers. Party 1 speaks;
    /// the server hearing them is killed while they speak. The utterance is still heard, whole
    /// (by the other server), one line says so, the room goes on (party 3 speaks, party 2
    /// types), and the transcript holds every utterance once.
    @Test("a room over two servers: one killed mid-utterance, the utterance still heard, the room goes on, each utterance written once")
    func serverKilledInARoom() throws {
        let servers = [try WyomingTestServer(), try WyomingTestServer()]
        defer { servers.forEach { $0.stop() } }
        let directory = try Fixtures.temporaryDirectory("parley-wyoming-room")
        defer { try? FileManager.default.removeItem(at: directory) }
        let transcript = directory.appendingPathComponent("t.jsonl").path
        let devices = try (1...3).map { (try LoopbackDevice(label: "wr\($0)mic"), try LoopbackDevice(label: "wr\($0)spk")) }
        let locales = ["en-US", "es-ES", "en-GB"]
        let run = try DialogueRun(["room"] + zip(locales, devices).map { "\($0),source=\($1.0.monitor),sink=\($1.1.sink)" }
                                  + servers.flatMap { ["--recognizer", $0.address] }
                                  + ["--transcript", transcript, "--no-history"], environment: ["PARLEY_LOG": "debug"])
        try run.waitForLine(timeout: 90) { $0.hasPrefix("the room is open") }
        let first = "librivox/sense_and_sensibility_01_austen_64kb-0870.wav"  // 6 s
        let playing = DispatchQueue.global()
        let played = DispatchGroup()
        playing.async(group: played) { _ = try? devices[0].0.play(Fixtures.recording(first)) }
        // The first utterance goes to the first server (both are idle, it was used longest ago).
        Thread.sleep(forTimeInterval: 2.5)
        servers[0].kill()
        _ = played.wait(timeout: .now() + 30)
        try run.waitForLine(timeout: 120) { $0.hasPrefix("1 en-US: ") }
        run.send(":parties")  // on a pipe, answered once everything said so far has been spoken
        try run.waitForLine(timeout: 120) { $0.hasPrefix("party 3: en-GB, ") }
        let second = "librivox/sense_and_sensibility_01_austen_64kb-0880.wav"
        try #require(devices[2].0.play(Fixtures.recording(second)).status == 0)
        try run.waitForLine(timeout: 120) { $0.hasPrefix("3 en-GB: ") }
        run.send("@2 Quiero un café con leche.")
        try run.waitForLine(timeout: 60) { $0.hasPrefix("2 es-ES: ") }
        #expect(try run.finish() == 0, "\(run.stderr)")

        let notes = run.stderr.split(separator: "\n").filter { $0.contains("note: the Wyoming server") && $0.contains("failed:") }
        #expect(notes.count == 1 && notes[0].contains(servers[0].address)
                && notes[0].hasSuffix("the utterance goes to another server, nothing heard is lost"), "\(run.stderr)")
        let written = try String(contentsOfFile: transcript, encoding: .utf8).split(separator: "\n")
            .map { try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]) }
        #expect(written.map { $0["party"] as? Int } == [1, 3, 2], "each utterance once, in the order said: \(written)")
        for (entry, name) in zip(written.prefix(2), [first, second]) {
            let text = entry["text"] as? String ?? ""
            let (errors, stock) = (SpokenWords.errors(text, reference: try StockReadings.transcript(name)), try StockReadings.whisperErrors(name))
            #expect(errors <= stock + 1, "\(name): heard '\(text)', \(errors) errors, stock Whisper makes \(stock)")
        }
        #expect(written.last?["text"] as? String == "Quiero un café con leche.")
    }

    @Test("a side's own recognizer=: that side is heard by the server, the other by the local engine; :recognizer says which")
    func sideRecognizer() throws {
        let server = try WyomingTestServer()
        defer { server.stop() }
        let output = try ProcessRunner.parley(["dialog", "en-US,recognizer=\(server.address)", "es-ES", "--mute", "--no-history",
                                               "--no-transcript"], input: Data(":recognizer\n".utf8))
        #expect(output.status == 0, "\(output.stderr)")
        #expect(output.stdout.contains("side A (en-US): wyoming") && output.stdout.contains("side B (es-ES): whisper"), "\(output.stdout)")
        let refused = try ProcessRunner.parley(["dialog", "en-US,recognizer=vosk", "es-ES", "--typed-only"], input: Data())
        #expect(refused.status == 64 && refused.stderr.contains("unknown recognizer 'vosk'"), "\(refused.stderr)")
    }

    @Test("a server that refuses: one sentence naming it, exit 1")
    func refused() throws {
        let address = "wyoming:tcp://127.0.0.1:\(try WyomingTestServer.freePort())"
        let output = try listen(address, ["--file", Fixtures.recording("goforward.raw")])
        #expect(output.status == 1)
        #expect(output.stdout.isEmpty)
        #expect(output.stderr == "parley: the Wyoming server \(address) failed: it refused the connection (is the server running?)\n")
    }

    @Test("a server that accepts and never answers: one sentence within the bound, exit 1")
    func silent() throws {
        let server = try ScriptedSocketServer(.silent)
        let started = Date()
        let output = try listen("wyoming:tcp://127.0.0.1:\(server.port)", ["--file", Fixtures.recording("goforward.raw")])
        #expect(output.status == 1)
        #expect(output.stderr.hasSuffix("failed: it did not answer within 5 s\n"), "\(output.stderr)")
        #expect(output.stderr.split(separator: "\n").count == 1)
        #expect(Date().timeIntervalSince(started) < 60)  // the bound is 5 s; the margin is the machine's
    }

    @Test("a server that does not speak Wyoming: one sentence, exit 1")
    func garbage() throws {
        let server = try ScriptedSocketServer(.replying("SSH-2.0-OpenSSH_9.2\r\n"))
        let output = try listen("wyoming:tcp://127.0.0.1:\(server.port)", ["--file", Fixtures.recording("goforward.raw")])
        #expect(output.status == 1)
        #expect(output.stderr.contains("failed: it does not speak Wyoming: it sent a line that is not a JSON event header ('SSH-2.0"),
                "\(output.stderr)")
        #expect(output.stderr.split(separator: "\n").count == 1)
    }

    @Test("addresses that are not a Wyoming server's are refused before anything starts", arguments: [
        ("wyoming:tcp://127.0.0.1", "it has no port"), ("wyoming:udp://127.0.0.1:10300", "only tcp:// servers are supported"),
        ("vosk", "unknown recognizer 'vosk'"),
    ])
    func badAddresses(_ value: String, _ problem: String) throws {
        let output = try listen(value, ["--file", Fixtures.recording("goforward.raw")])
        #expect(output.status == 64)
        #expect(output.stderr.contains(problem), "\(output.stderr)")
    }

    @Test("--phrases and --commit need the local Whisper: refused with a Wyoming server, in one sentence")
    func localOnlyOptions() throws {
        let commit = try listen("wyoming:tcp://127.0.0.1:10300", ["--file", Fixtures.recording("goforward.raw"), "--commit", "local-agreement"])
        #expect(commit.status == 64 && commit.stderr.contains("--commit needs word times"), "\(commit.stderr)")
        let phrases = try listen("wyoming:tcp://127.0.0.1:10300", ["--file", Fixtures.recording("goforward.raw"), "--phrases", "/dev/null"])
        #expect(phrases.status == 64 && phrases.stderr.contains("--phrases guide the Whisper on this machine"), "\(phrases.stderr)")
    }
}
