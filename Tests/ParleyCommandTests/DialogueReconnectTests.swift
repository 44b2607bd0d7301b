import Foundation
import TestSupport
import Testing

/// `parley dialog` on a private audio server of the test server's kind that is
/// killed and restarted under it (as in `ServerLossTests`), standard input a pipe.
@Suite("Dialogue across a reconnect", .serialized)
struct DialogueReconnectTests {
    static let longLine = "Where is the station with the many platforms, the old clock and the long trains to the south of the country?"

    /// Runs `body` with a conversation on a private server of its own, once side A's turn is
    /// announced: the server, the conversation, and the path of its transcript.
    static func conversation(_ name: String, _ body: (PrivateAudioServer, DialogueRun, String) throws -> Void) throws {
        let directory = try Fixtures.temporaryDirectory(name)
        defer { try? FileManager.default.removeItem(at: directory) }
        let server = PrivateAudioServer(directory: directory.appendingPathComponent("server").path)
        let address = try server.start()
        defer { try? server.stop() }
        let transcript = directory.appendingPathComponent("t.jsonl").path
        let run = try DialogueRun(["dialog", "en-US", "es-ES", "--transcript", transcript, "--no-history"],
                                  environment: ["PULSE_SERVER": address])
        try run.waitForLine { $0 == "A (en-US), your turn" }
        try body(server, run, transcript)
    }

    /// The server goes while the side is listening, or while a translation is being spoken.
    @Test(arguments: [false, true])
    func endOfInputAfterAReconnectEndsTheConversationPromptly(whileSpeaking: Bool) throws {
        try Self.conversation("parley-dialog-restart") { server, run, transcript in
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
}
