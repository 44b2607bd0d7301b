import Foundation
import TestSupport
import TranslationReference
import Testing

/// `parley room` with three parties on real servers: en-US and fr-FR on the test server,
/// each with null sinks of their own for a microphone and a speaker, and es-ES on a second
/// private PulseAudio server reached over TCP on 127.0.0.1 with its cookie, as a person at
/// another machine is.
@Suite("Room of three", .serialized)
struct RoomTests {
    /// A LibriVox sentence: "he might even have been made amiable himself".
    static let english = "librivox/sense_and_sensibility_01_austen_64kb-0930.wav"

    /// The second server, over TCP, with the null sinks its script makes (`parley_mic`, `parley_speaker`).
    final class RemoteServer {
        let server: PrivateAudioServer
        let address: String
        let cookie: String
        let port: Int

        init(directory: URL) throws {
            server = PrivateAudioServer(directory: directory.path)
            var started: (String, String)?
            var port = 0
            for _ in 0..<3 where started == nil {
                port = Int.random(in: 49_152...65_000)
                started = try? server.startOverTCP(port: port)
            }
            let (address, cookie) = try #require(started, "the second server did not start on three ports")
            (self.address, self.cookie, self.port) = (address, cookie, port)
        }

        var environment: [String: String] {
            var environment = ProcessInfo.processInfo.environment
            environment["PULSE_SERVER"] = address
            environment["PULSE_COOKIE"] = cookie
            return environment
        }

        /// The Spanish party, as `parley room` takes it.
        var party: String { "es-ES,source=parley_mic.monitor,sink=parley_speaker,server=\(address),cookie=\(cookie)" }

        func play(_ path: String) throws {
            let output = try ProcessRunner.run(["paplay", "--device=parley_mic", path], environment: environment)
            try #require(output.status == 0, "\(output.stderr)")
        }

        func record() throws -> Recording { try Recording(source: "parley_speaker.monitor", environment: environment) }

        func restart() throws {
            var started = false
            for _ in 0..<50 where !started {
                started = (try? server.startOverTCP(port: port)) != nil
                if !started { Thread.sleep(forTimeInterval: 0.2) }  // the port may linger a moment
            }
            try #require(started, "the second server did not start again on port \(port)")
        }

        deinit { try? server.stop() }
    }

    private func utterances(_ path: String) throws -> [[String: Any]] {
        try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n")
            .map { try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]) }
    }

    /// The text after `prefix` on the first (or last) line that starts with it, without the notes
    /// after it: `(heard, confidence 91%)`, `(typed)`, `(through es)`, `(unknown: …)`.
    private func text(after prefix: String, in run: DialogueRun, last: Bool = false) throws -> String {
        let lines = run.lines.filter { $0.hasPrefix(prefix) }
        let line = try #require(last ? lines.last : lines.first, "no line '\(prefix)…' in:\n\(run.stdout)")
        return String(line.dropFirst(prefix.count))
            .replacingOccurrences(of: #"( \((heard|typed|through |unknown: )[^)]*\))+$"#, with: "", options: .regularExpression)
    }

    /// Whether the first line starting with `prefix` notes the pivot `language`.
    private func pivoted(_ prefix: String, through language: String, in run: DialogueRun) -> Bool {
        run.lines.first { $0.hasPrefix(prefix) }?.contains(" (through \(language))") == true
    }

    @Test("English speech is heard in French on the French party's speaker and in Spanish on the other server's; a Spanish speaker at the same time is heard too")
    func threeLanguages() throws {
        let directory = try Fixtures.temporaryDirectory("parley-room")
        defer { try? FileManager.default.removeItem(at: directory) }
        let transcript = directory.appendingPathComponent("t.jsonl").path
        let remote = try RemoteServer(directory: directory.appendingPathComponent("remote"))
        let (englishMicrophone, englishSpeaker) = (try LoopbackDevice(label: "r1mic"), try LoopbackDevice(label: "r1spk"))
        let (frenchMicrophone, frenchSpeaker) = (try LoopbackDevice(label: "r2mic"), try LoopbackDevice(label: "r2spk"))
        let run = try DialogueRun(["room", "en-US,source=\(englishMicrophone.monitor),sink=\(englishSpeaker.sink)",
                                   "fr-FR,source=\(frenchMicrophone.monitor),sink=\(frenchSpeaker.sink)", remote.party,
                                   "--transcript", transcript, "--no-history"])
        try run.waitForLine(timeout: 90) { $0.hasPrefix("the room is open") }
        #expect(run.lines.contains("party 3: es-ES on \(remote.address)"), "\(run.stdout)")
        #expect(try connections(of: run.processIdentifier) == 1, "parties 1 and 2 share one connection to the test server")
        #expect(try connections(of: run.processIdentifier, environment: remote.environment) == 1)
        Thread.sleep(forTimeInterval: 0.5)
        let (heardInEnglish, heardInFrench, heardInSpanish) = (try englishSpeaker.startRecording(), try frenchSpeaker.startRecording(),
                                                               try remote.record())
        try englishMicrophone.play(Fixtures.recording(Self.english))
        try run.waitForLine(timeout: 90) { $0.hasPrefix("→ 3 es-ES: ") }
        run.send(":parties")  // on a pipe, answered once everything said so far has been spoken
        try run.waitForLine(timeout: 90) { $0.hasPrefix("party 3: es-ES, ") }
        let (english, french, spanish) = (try heardInEnglish.stop(after: HeardSpeech.tail), try heardInFrench.stop(after: HeardSpeech.tail),
                                          try heardInSpanish.stop(after: HeardSpeech.tail))

        let heard = try text(after: "1 en-US: ", in: run)
        let reference = try StockReadings.transcript(Self.english)
        #expect(SpokenWords.errors(heard, reference: reference) <= 2, "heard '\(heard)' for '\(reference)'")
        let toFrench = try text(after: "→ 2 fr-FR: ", in: run), toSpanish = try text(after: "→ 3 es-ES: ", in: run)
        #expect(toSpanish == (try ApertiumReference.cleaned("eng-spa", heard)), "the direct pair")
        #expect(pivoted("→ 2 fr-FR: ", through: "es", in: run), "English reaches French through Spanish: \(run.stdout)")
        // Whisper base reads eSpeak NG's French poorly, so the French text is held against the
        // two `apertium -u` legs chained, tidied as the room tidies French.
        let chained = ApertiumReference.cleanup.apply(to: try ApertiumReference.chainedRaw(["eng-spa", "es-fr"], heard),
                                                      language: "fr").text
        #expect(toFrench == chained, "the pivot through Spanish, as `apertium eng-spa | apertium es-fr` gives it")
        try expectSpeech(french, saying: toFrench, locale: "fr-FR", in: directory)
        try expectSpeech(spanish, saying: toSpanish, locale: "es-ES", in: directory)
        #expect(audibleSeconds(english) == 0, "the English speaker hears nothing of their own words")

        // Two at once: the Spanish party and the English party speak over each other.
        let spanishLine = "Quiero un café con leche."
        let said = directory.appendingPathComponent("es.wav").path
        let saying = try ProcessRunner.parley(["say", "--locale", "es-ES", "--out", said, spanishLine])
        try #require(saying.status == 0, "\(saying.stderr)")
        let both = [DispatchWorkItem { _ = try? englishMicrophone.play(Fixtures.recording(Self.english)) },
                    DispatchWorkItem { try? remote.play(said) }]
        both.forEach { DispatchQueue.global().async(execute: $0) }
        both.forEach { $0.wait() }
        try run.waitForLine(timeout: 90) { $0.hasPrefix("3 es-ES: ") }
        try run.waitForLine(count: 2, timeout: 90) { $0.hasPrefix("1 en-US: ") }
        #expect(try run.finish() == 0, "\(run.stderr)")

        let spanishHeard = try text(after: "3 es-ES: ", in: run)
        #expect(["café", "leche"].allSatisfy { spanishHeard.lowercased().contains($0) }, "\(spanishHeard)")
        #expect(run.lines.contains { $0.hasPrefix("→ 1 en-US: ") }, "the Spanish utterance reached English: \(run.stdout)")
        #expect(run.lines.filter { $0.hasPrefix("→ 2 fr-FR: ") }.count == 3, "French hears all three utterances: \(run.stdout)")
        let written = try utterances(transcript)
        #expect(written.count == 3, "every utterance once: \(written)")
        #expect(written.compactMap { $0["utterance"] as? Int } == [1, 2, 3])
        #expect(Set(written.compactMap { $0["party"] as? Int }) == [1, 3])
        let first = try #require(written.first)
        let translations = try #require(first["translations"] as? [[String: Any]])
        #expect(translations.map { $0["text"] as? String } == [toFrench, toSpanish])
        #expect(translations.first?["pivots"] as? [String] == ["es"])
    }

    @Test("the second server killed, the room goes on without its party; started again, the party is back and hears the room")
    func serverComesAndGoes() throws {
        let directory = try Fixtures.temporaryDirectory("parley-room-away")
        defer { try? FileManager.default.removeItem(at: directory) }
        let transcript = directory.appendingPathComponent("t.jsonl").path
        let remote = try RemoteServer(directory: directory.appendingPathComponent("remote"))
        let (englishMicrophone, englishSpeaker) = (try LoopbackDevice(label: "ra1mic"), try LoopbackDevice(label: "ra1spk"))
        let (frenchMicrophone, frenchSpeaker) = (try LoopbackDevice(label: "ra2mic"), try LoopbackDevice(label: "ra2spk"))
        let run = try DialogueRun(["room", "en-US,source=\(englishMicrophone.monitor),sink=\(englishSpeaker.sink)",
                                   "fr-FR,source=\(frenchMicrophone.monitor),sink=\(frenchSpeaker.sink)", remote.party,
                                   "--transcript", transcript, "--no-history"])
        try run.waitForLine(timeout: 90) { $0.hasPrefix("the room is open") }

        try remote.server.stop()
        try run.waitForLine(timeout: 30) { $0.hasPrefix("party 3 is away: ") }
        let heardInFrench = try frenchSpeaker.startRecording()
        run.send("@1 Thank you very much.")
        run.send(":parties")
        try run.waitForLine(timeout: 60) { $0 == "party 3: es-ES, away" }
        let french = try heardInFrench.stop(after: HeardSpeech.tail)
        #expect(run.lines.contains("utterance 1 was not spoken to party 3: party 3 is away"), "\(run.stdout)")
        let toFrench = try text(after: "→ 2 fr-FR: ", in: run)
        try expectSpeech(french, saying: toFrench, locale: "fr-FR", in: directory)

        try remote.restart()
        try run.waitForLine(timeout: 60) { $0 == "party 3 is back" }
        let heardInSpanish = try remote.record()
        run.send("@2 Bonjour, je voudrais un café.")
        run.send(":parties")
        try run.waitForLine(timeout: 60) { $0 == "party 3: es-ES, here" }
        let spanish = try heardInSpanish.stop(after: HeardSpeech.tail)
        #expect(try run.finish() == 0, "\(run.stderr)")
        let toSpanish = try text(after: "→ 3 es-ES: ", in: run, last: true)
        #expect(toSpanish == (try ApertiumReference.cleaned("fr-es", "Bonjour, je voudrais un café.")))
        try expectSpeech(spanish, saying: toSpanish, locale: "es-ES", in: directory)

        let written = try utterances(transcript)
        #expect(written.map { $0["text"] as? String } == ["Thank you very much.", "Bonjour, je voudrais un café."])
        #expect(written.map { $0["away"] as? [Int] } == [[3], []])
    }
}

/// `parley room`'s refusals, before any audio is opened: one sentence each, exit 64.
@Suite struct RoomRefusalTests {
    @Test("a room that cannot work is refused in one sentence that says why",
          arguments: [(["room", "en-US"], "a room needs two parties or more"),
                      (["room", "en-US", "fr-FR"], "parties 1 and 2 would share one microphone (the default source of the default server)"),
                      (["room", "en-US,source=a", "fr-FR,source=a"], "parties 1 and 2 would share one microphone (a of the default server)"),
                      (["room", "en-US,source=a", "fr-FR,source=b", "--source", "c"], "--source and --sink name one microphone"),
                      (["room", "en-US,source=a", "fr-FR,sink"], "party 'fr-FR,sink': 'sink' is not KEY=VALUE"),
                      (["room", "en-US,source=a", "fr-FR,source=b,cookie=/nonexistent-cookie"], "party 2's cookie /nonexistent-cookie does not exist"),
                      (["room", "en-US,source=a", "fr-FR,source=b", "--simultaneous", "--recognizer", "pocketsphinx"],
                       "--simultaneous commits words with Whisper, which --recognizer pocketsphinx leaves out"),
                      (["room", "en-US,source=a", "fr-FR,source=b", "--commit-policy", "align-att"],
                       "--commit-policy chooses how --simultaneous commits words"),
                      (["room", "en-US,source=a", "fr-FR,source=b", "--barge-in", "maybe"], "--barge-in")])
    func refused(arguments: [String], expected: String) throws {
        let output = try ProcessRunner.parley(arguments)
        #expect(output.status == 64)
        #expect(output.stderr.contains(expected), "\(output.stderr)")
        #expect(output.stdout.isEmpty)
    }

    @Test("two parties on one source of two different servers are two microphones")
    func sameSourceNameOnTwoServers() throws {
        // The second server does not exist: the room gets past the refusals and fails to reach it.
        let source = TestAudioServer.speakerSource
        let output = try ProcessRunner.parley(["room", "en-US,source=\(source)", "fr-FR,source=\(source),server=tcp:127.0.0.1:1",
                                               "--no-transcript"])
        #expect(output.status == 1)
        #expect(output.stderr.contains("party 2 cannot be reached on tcp:127.0.0.1:1"), "\(output.stderr)")
    }
}

/// Connections the process `pid` holds to a server (the test server, or the one `environment` names).
func connections(of pid: Int32, environment: [String: String]? = nil) throws -> Int {
    let listed = try ProcessRunner.run(["pactl", "list", "clients"], environment: environment ?? TestAudioServer.environment())
    return listed.stdout.split(separator: "\n").filter {
        $0.trimmingCharacters(in: .whitespaces) == "application.process.id = \"\(pid)\""
    }.count
}
