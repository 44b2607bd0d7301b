import Foundation
import TestSupport
import TranslationReference
import Testing

/// `parley dialog` on a private audio server of the test server's kind that is
/// killed and restarted under it (as in `ServerLossTests`), standard input a pipe.
@Suite("Dialogue across a reconnect", .serialized)
struct DialogueReconnectTests {
    static let longLine = "Where is the station with the many platforms, the old clock and the long trains to the south of the country?"

    /// Runs `body` with a conversation on a private server of its own, once side A's turn is
    /// announced: the server, the conversation, and the path of its transcript.
    /// `arguments` are added to the conversation's (none: Parley's defaults, an echo canceller
    /// between microphone and speaker, and barge-in).
    static func conversation(_ name: String, arguments: [String] = [],
                             _ body: (PrivateAudioServer, DialogueRun, String) throws -> Void) throws {
        try conversation(name, arguments: arguments) { server, run, transcript, _, _ in try body(server, run, transcript) }
    }

    /// `conversation`, with the server's address and the test's directory.
    static func conversation(_ name: String, arguments: [String] = [],
                             _ body: (PrivateAudioServer, DialogueRun, String, String, URL) throws -> Void) throws {
        let directory = try Fixtures.temporaryDirectory(name)
        defer { try? FileManager.default.removeItem(at: directory) }
        let server = PrivateAudioServer(directory: directory.appendingPathComponent("server").path)
        let address = try server.start()
        defer { try? server.stop() }
        let transcript = directory.appendingPathComponent("t.jsonl").path
        let run = try DialogueRun(["dialog", "en-US", "es-ES", "--transcript", transcript, "--no-history"] + arguments,
                                  environment: ["PULSE_SERVER": address, "XDG_STATE_HOME": directory.path])
        try run.waitForLine(timeout: 90) { $0 == "A (en-US), your turn" }
        try body(server, run, transcript, address, directory)
    }

    /// The server goes while the side is listening, or while a translation is being spoken; with
    /// the defaults (an echo canceller) and on the half-duplex path (`--echo-cancel off`: the
    /// microphone closes while Parley speaks).
    @Test(arguments: [false, true], [[], ["--echo-cancel", "off"]])
    func endOfInputAfterAReconnectEndsTheConversationPromptly(whileSpeaking: Bool, arguments: [String]) throws {
        try Self.conversation("parley-dialog-restart", arguments: arguments) { server, run, transcript in
            run.send(whileSpeaking ? Self.longLine : "Where is the station?")
            if whileSpeaking {
                try run.waitForLine { $0.hasPrefix("→ es-ES:") }
                Thread.sleep(forTimeInterval: 1)
            } else {
                try run.waitForLine { $0 == "B (es-ES), your turn" }
            }
            try server.stop()
            try run.waitForLine(timeout: 20) { $0.contains("audio failed") }
            try server.start()
            try run.waitForLine(timeout: 30) { $0.contains("the audio server is back") }

            let closed = Date()
            let status = try run.finish(timeout: 10)
            let seconds = Date().timeIntervalSince(closed)
            #expect(status == 0)
            #expect(seconds < 5, "parley took \(seconds) s to leave after the end of input")
            let lines = try String(contentsOfFile: transcript, encoding: .utf8).split(separator: "\n")
            #expect(lines.count == 1 && lines.first?.contains(whileSpeaking ? "many platforms" : #""text":"Where is the station?""#) == true)
        }
    }

    /// The server goes while A speaks, with the defaults: three seconds into LibriVox 0870 (7.1 s,
    /// no pause of 0.25 s in it, so no endpoint comes before). What was heard of A is A's turn,
    /// translated and written, not lost; while the server is gone it is printed, not spoken.
    @Test func theServerLostWhileASpeaksKeepsWhatWasHeard() throws {
        let recordingName = "librivox/sense_and_sensibility_01_austen_64kb-0870.wav"
        try Self.conversation("parley-dialog-lost-mid-speech") { server, run, transcript, address, _ in
            let player = try ProcessRunner.start(["paplay", "--device=parley_mic", Fixtures.recording(recordingName)],
                                                 environment: ["PULSE_SERVER": address])
            Thread.sleep(forTimeInterval: 3)
            try server.stop()
            ProcessRunner.waitForExit(player, seconds: 5)
            try run.waitForLine(timeout: 20) { $0.contains("audio failed") }
            try run.waitForLine(timeout: 60) { $0.hasPrefix("B (es-ES), your turn") }
            try server.start()
            try run.waitForLine(timeout: 30) { $0.contains("the audio server is back") }
            let status = try run.finish(timeout: 20)
            #expect(status == 0, "\(run.stderr)")

            let lines = try String(contentsOfFile: transcript, encoding: .utf8).split(separator: "\n")
            try #require(lines.count == 1, "one turn, A's words before the server went: \(lines)\n\(run.stdout)\n\(run.stderr)")
            let turn = try #require(try JSONSerialization.jsonObject(with: Data(lines[0].utf8)) as? [String: Any])
            #expect(turn["side"] as? String == "A" && turn["input"] as? String == "speech", "\(lines[0])")
            let heard = try #require(turn["text"] as? String)
            // Three seconds of a 7.1 s sentence of 22 words: its first eight ("and mister john dashwood
            // had then leisure to"), whose content words the reading shares at least half of.
            let opening = SpokenWords.normalized(try StockReadings.transcript(recordingName)).prefix(8).joined(separator: " ")
            #expect(SpokenWords.sharedContent(heard, reference: opening) >= 0.5, "heard '\(heard)' for the opening '\(opening)'")
            let times = try #require(turn["times"] as? [String: Any], "\(lines[0])")
            #expect(times["speech_start"] is Double && times["speak_start"] is NSNull,
                    "the server was gone: the translation was printed, not spoken: \(lines[0])")
        }
    }

    /// pipewire-pulse alone restarts under the conversation (pipewire and its sinks stay), a line is
    /// typed and spoken over the new connection, then the input ends.
    @Test(.enabled(if: (try? TestAudioServer.isPipeWire) ?? false))
    func endOfInputAfterAPipeWirePulseRestartEndsTheConversation() throws {
        try Self.conversation("parley-dialog-pw-restart") { server, run, transcript in
            try server.restartPipeWirePulse()
            try run.waitForLine(timeout: 30) { $0.contains("the audio server is back") }
            run.send("Where is the station?")
            try run.waitForLine { $0 == "B (es-ES), your turn" }

            let closed = Date()
            let status = try run.finish(timeout: 20)
            let seconds = Date().timeIntervalSince(closed)
            #expect(status == 0, "\(run.stderr)")
            #expect(seconds < 5, "parley took \(seconds) s to leave after the end of input")
            let lines = try String(contentsOfFile: transcript, encoding: .utf8).split(separator: "\n")
            #expect(lines.count == 1 && lines.first?.contains(#""text":"Where is the station?""#) == true, "\(lines)")
        }
    }

    /// With the defaults, the echo canceller dies with its server: when the server is back (PulseAudio
    /// stopped and started again, or pipewire-pulse restarted), a canceller is loaded on the new server,
    /// A's speech is heard through it, and the translation is spoken on the speaker.
    @Test func withTheDefaultsTheCancellerIsLoadedAgainAndTheConversationHeardAndSpokenAfterARestart() throws {
        let recordingName = "librivox/sense_and_sensibility_01_austen_64kb-0930.wav"
        try Self.conversation("parley-dialog-ec-restart") { server, run, transcript, address, directory in
            let environment = ["PULSE_SERVER": address]
            #expect(try Self.cancellers(on: address).count == 1, "the conversation records through a canceller")
            if try TestAudioServer.isPipeWire {
                try server.restartPipeWirePulse()
            } else {
                try server.stop()
                try server.start()
            }
            try run.waitForLine(timeout: 30) { $0.contains("the audio server is back") }
            let loaded = try Self.cancellers(on: address)
            #expect(loaded.count == 1, "a canceller is loaded on the new server: \(loaded)\n\(run.stdout)\n\(run.stderr)")
            #expect(!run.stdout.contains("could not be loaded again"), "\(run.stdout)")

            let speech = try Recording(source: "parley_speaker.monitor", environment: environment)
            let played = try ProcessRunner.run(["paplay", "--device=parley_mic", Fixtures.recording(recordingName)],
                                               environment: environment)
            try #require(played.status == 0, "paplay failed: \(played.stderr)")
            try run.waitForLine(timeout: 90) { $0.hasPrefix("B (es-ES), your turn") }
            let spoken = try speech.stop(after: HeardSpeech.tail)
            let status = try run.finish(timeout: 20)
            #expect(status == 0, "\(run.stderr)")

            // A's sentence is A's: one turn, or more where its turn ended early and A went on (once in
            // a fresh-clone run on pipewire-pulse, two turns): every part is A's, and they read the sentence.
            let lines = try String(contentsOfFile: transcript, encoding: .utf8).split(separator: "\n")
            let turns = try lines.map { try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]) }
            try #require(!turns.isEmpty, "no turn after the restart\n\(run.stdout)\n\(run.stderr)")
            #expect(turns.allSatisfy { $0["input"] as? String == "speech" && $0["side"] as? String == "A" },
                    "every turn after the restart is A's speech: \(lines)\n\(run.stdout)")
            let heard = turns.compactMap { $0["text"] as? String }.joined(separator: " ")
            let reference = try StockReadings.transcript(recordingName)
            let errors = SpokenWords.errors(heard, reference: reference)
            let stock = try StockReadings.whisperErrors(recordingName)
            // Through a canceller just loaded again, Whisper can misread a word or two more (on
            // pipewire-pulse, "He might even have been amazed at me able himself." for "… made amiable
            // himself": 4 errors where stock makes 0); such a reading keeps half the passage's content words.
            let heardWell = errors <= stock + 1 || SpokenWords.sharedContent(heard, reference: reference) >= 0.5
            #expect(heardWell, "heard '\(heard)' for '\(reference)' in \(turns.count) turns: \(errors) errors, stock Whisper makes \(stock)")
            for turn in turns {
                let text = try #require(turn["text"] as? String)
                #expect(turn["translation"] as? String == (try ApertiumReference.cleaned("eng-spa", text)))
            }
            let translation = turns.compactMap { $0["translation"] as? String }.joined(separator: " ")
            try expectSpeech(spoken, saying: translation, locale: "es-ES", in: directory)
        }
    }

    /// The echo cancellers of Parley's loaded on the server at `address`: their module lines.
    static func cancellers(on address: String) throws -> [String] {
        let output = try ProcessRunner.run(["pactl", "list", "short", "modules"], environment: ["PULSE_SERVER": address])
        try #require(output.status == 0, "pactl failed: \(output.stderr)")
        return output.stdout.split(separator: "\n").map(String.init).filter { $0.contains("source_name=parley_ec.") }
    }
}
