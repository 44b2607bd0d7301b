import Foundation
import TestSupport
import Testing

/// How `parley dialog` and `parley room` end while something is still being spoken: SIGTERM
/// acts at once, whatever input waits behind the speech and whatever the server does, and
/// writes the turn in progress; the end of input gives up a drain the server never reports.
/// The bounds are generous (the product aims at 2 s) so that a loaded machine stays off the edge.
@Suite("Shutdown within a bound", .serialized)
struct ShutdownTests {
    /// Seconds a signal or the end of input may take to end Parley here.
    static let bound = 5.0

    /// A typed line that takes minutes to speak.
    static let longLine = String(repeating: "Where is the station with the many platforms and the old clock? ", count: 300)

    private func entries(_ path: String) throws -> [[String: Any]] {
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { return [] }
        return try text.split(separator: "\n").map { try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]) }
    }

    @Test("SIGTERM while a long translation is spoken and another line waits: Parley leaves at once, the turn written as interrupted",
          arguments: [SIGTERM, SIGHUP])
    func signalWhileSpeaking(signal: Int32) throws {
        let directory = try Fixtures.temporaryDirectory("parley-sigterm")
        defer { try? FileManager.default.removeItem(at: directory) }
        let transcript = directory.appendingPathComponent("t.jsonl").path
        let run = try DialogueRun(["dialog", "en-US", "es-ES", "--transcript", transcript, "--no-history"])
        try run.waitForLine { $0 == "A (en-US), your turn" }
        run.send(Self.longLine)
        run.send("Good morning.")
        try run.waitForLine { $0 == "speaking to B…" }
        Thread.sleep(forTimeInterval: 1)

        let ended = try #require(run.exit(on: signal), "parley was still running 30 s after the signal: \(run.stdout)")
        #expect(ended.seconds < Self.bound, "parley took \(ended.seconds) s to leave after the signal")
        let written = try entries(transcript)
        #expect(written.count == 1, "the turn being spoken, and only it: \(written)")
        #expect((written.first?["text"] as? String)?.hasPrefix("Where is the station") == true)
        #expect(written.first?["interrupted"] as? Bool == true, "\(written)")
        #expect((written.first?["played_seconds"] as? Double ?? 0) > 0.5, "\(written)")
    }

    @Test("SIGTERM while a party's remote server is frozen (SIGSTOP): the room leaves at once")
    func roomSignalWithAFrozenServer() throws {
        try frozenRoom("parley-room-frozen", line: Self.longLine) { run, transcript in
            let ended = try #require(run.exit(on: SIGTERM), "the room was still running 30 s after SIGTERM: \(run.stdout)")
            #expect(ended.seconds < Self.bound, "the room took \(ended.seconds) s to leave after SIGTERM")
            #expect(try entries(transcript).count == 1, "the utterance is written once translated")
        }
    }

    @Test("the end of input while a party's remote server is frozen: the drain never reported is given up and named in one line")
    func roomEndOfInputWithAFrozenServer() throws {
        try frozenRoom("parley-room-frozen-eof", line: "Where is the station?") { run, _ in
            let closed = Date()
            let status = try run.finish(timeout: 30)
            let seconds = Date().timeIntervalSince(closed)
            #expect(status == 0, "\(run.stderr)")
            // The translation is about 1.5 s of speech; its drain is given up 1.5 s past that.
            #expect(seconds < 3 + Self.bound, "the room took \(seconds) s to leave after the end of input")
            let notes = run.stderr.split(separator: "\n").filter { $0.contains("did not report the end of playback") }
            #expect(notes.count == 1 && notes.first?.hasSuffix("; leaving") == true, "\(run.stderr)")
        }
    }

    /// A room of two, the Spanish party on a second server over TCP; `line` is typed as party 1,
    /// and once its translation is being spoken to party 2 that server is stopped (SIGSTOP) and
    /// `body` runs. The server is resumed and stopped afterwards.
    private func frozenRoom(_ name: String, line: String, _ body: (DialogueRun, String) throws -> Void) throws {
        let directory = try Fixtures.temporaryDirectory(name)
        defer { try? FileManager.default.removeItem(at: directory) }
        let transcript = directory.appendingPathComponent("t.jsonl").path
        let remoteDirectory = directory.appendingPathComponent("remote")
        let remote = try RoomTests.RemoteServer(directory: remoteDirectory)
        let (microphone, speaker) = (try LoopbackDevice(label: "sdmic"), try LoopbackDevice(label: "sdspk"))
        let run = try DialogueRun(["room", "en-US,source=\(microphone.monitor),sink=\(speaker.sink)", remote.party,
                                   "--transcript", transcript, "--no-history"])
        try run.waitForLine(timeout: 90) { $0.hasPrefix("the room is open") }
        run.send("@1 \(line)")
        try run.waitForLine(timeout: 60) { $0.hasPrefix("→ 2 es-ES: ") }
        Thread.sleep(forTimeInterval: 0.5)
        let pidText = try String(contentsOf: remoteDirectory.appendingPathComponent("pid"), encoding: .utf8)
        let serverPid = try #require(Int32(pidText.trimmingCharacters(in: .whitespacesAndNewlines)))
        kill(serverPid, SIGSTOP)
        defer { kill(serverPid, SIGCONT) }
        try withExtendedLifetime(remote) { try body(run, transcript) }
    }

    @Test("SIGTERM while a turn is interpreted with a headset each: Parley leaves at once, the clauses shown so far written")
    func signalWhileInterpreting() throws {
        let directory = try Fixtures.temporaryDirectory("parley-sigterm-simultaneous")
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = try LongSpeechPassages.build(LongSpeechPassages.all[0], in: directory)
        let transcript = directory.appendingPathComponent("t.jsonl").path
        let (microphoneA, speakerA) = (try LoopbackDevice(label: "tsamic"), try LoopbackDevice(label: "tsaspk"))
        let (microphoneB, speakerB) = (try LoopbackDevice(label: "tsbmic"), try LoopbackDevice(label: "tsbspk"))
        let run = try DialogueRun(["dialog", "en-US", "es-ES", "--simultaneous",
                                   "--source", microphoneA.monitor, "--sink", speakerA.sink,
                                   "--source-b", microphoneB.monitor, "--sink-b", speakerB.sink,
                                   "--no-history", "--transcript", transcript])
        try run.waitForLine(timeout: 90) { $0.hasPrefix("A (en-US), your turn") }
        let speaking = DispatchWorkItem { _ = try? microphoneA.play(file) }
        DispatchQueue.global().async(execute: speaking)
        defer { speaking.wait() }
        try run.waitForLine(timeout: 90) { $0.hasPrefix("→ es-ES: ") }
        // A clause is shown as "A … TEXT" right before its "→ es-ES: TRANSLATION" (other "A … " lines are partials).
        let lines = run.lines
        let shown = lines.indices.dropFirst().filter { lines[$0].hasPrefix("→ es-ES: ") && lines[$0 - 1].hasPrefix("A … ") }
            .map { String(lines[$0 - 1].dropFirst("A … ".count)) }

        let ended = try #require(run.exit(on: SIGTERM), "parley was still running 30 s after the signal: \(run.stdout)")
        #expect(ended.seconds < Self.bound, "parley took \(ended.seconds) s to leave after the signal")
        let written = try entries(transcript)
        try #require(written.count == 1, "the turn being interpreted: \(written)\n\(run.stdout)\n\(run.stderr)")
        #expect(written[0]["side"] as? String == "A")
        let clauses = try #require(written[0]["clauses"] as? [[String: Any]], "\(written[0])")
        #expect(clauses.count >= shown.count, "every clause shown is written: \(shown) against \(clauses)")
        let text = SpokenWords.normalized(written[0]["text"] as? String ?? "")
        let first = SpokenWords.normalized(try #require(shown.first))
        #expect(Array(text.prefix(first.count)) == first, "the turn begins with the first clause shown: \(text)")
    }
}
