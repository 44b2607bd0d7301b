import Foundation
import Testing
import TestSupport

/// Two people are never given one microphone, however it is written: by its name or as the
/// server's default, on a server written as the default, `unix:PATH` or the bare path. Each
/// refusal comes before anything is opened, in one sentence, exit 64.
@Suite("One microphone, written two ways")
struct OneMicrophoneTests {
    /// The test server's socket, as `unix:PATH`.
    static var socket: String {
        get throws {
            let server = try #require(try TestAudioServer.environment()["PULSE_SERVER"])
            try #require(server.hasPrefix("unix:"), "the test server is on a socket: \(server)")
            return server
        }
    }

    /// The test server's default source, as the server names it.
    static var defaultSource: String {
        get throws {
            let output = try ProcessRunner.run(["pactl", "get-default-source"], environment: TestAudioServer.environment())
            try #require(output.status == 0, "\(output.stderr)")
            return output.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        }
    }

    static func parley(_ arguments: [String]) throws -> ProcessRunner.Output {
        try CookieFileTests.parley(arguments)
    }

    @Test("a room whose parties hear one source, written by name and as the default, is refused")
    func roomByNameAndDefault() throws {
        let source = try Self.defaultSource
        let output = try Self.parley(["room", "en-US,source=\(source)", "es-ES,sink=parley_speaker"])
        #expect(output.status == 64)
        #expect(output.stderr.contains("parties 1 and 2 would share one microphone (\(source), the default source of the default server)")
                && output.stderr.split(separator: "\n").count <= 3, "\(output.stderr)")
    }

    @Test("a room whose parties hear one server, written as unix:PATH and as the default or the bare path, is refused",
          arguments: [nil, "bare"])
    func roomOnOneServerWrittenTwoWays(common: String?) throws {
        let socket = try Self.socket
        let server = common.map { _ in String(socket.dropFirst("unix:".count)) }
        let source = TestAudioServer.speakerSource
        let named = try Self.parley(["room", "en-US,source=\(source)", "es-ES,source=\(source),server=\(socket)"]
                                    + (server.map { ["--server", $0] } ?? []))
        #expect(named.status == 64)
        #expect(named.stderr.contains("parties 1 and 2 would share one microphone (\(source) of \(server ?? "the default server"))"),
                "\(named.stderr)")
        let defaultSource = try Self.defaultSource
        let both = try Self.parley(["room", "en-US,source=\(defaultSource)", "es-ES,server=\(socket),sink=parley_speaker"]
                                   + (server.map { ["--server", $0] } ?? []))
        #expect(both.status == 64)
        #expect(both.stderr.contains("parties 1 and 2 would share one microphone (\(defaultSource), the default source"), "\(both.stderr)")
    }

    @Test("a dialogue whose sides hear one source, written by name and as the default, is refused")
    func dialogueByNameAndDefault() throws {
        let source = try Self.defaultSource
        let output = try Self.parley(["dialog", "en-US,source=\(source)", "es-ES", "--sink-b", "parley_speaker"])
        #expect(output.status == 64)
        #expect(output.stderr.contains("sides A and B would share one microphone (\(source), the default source of the default server)")
                && output.stderr.split(separator: "\n").count <= 3, "\(output.stderr)")
        let reversed = try Self.parley(["dialog", "en-US", "es-ES", "--source-b", source])
        #expect(reversed.status == 64)
        #expect(reversed.stderr.contains("sides A and B would share one microphone (\(source), the default source"), "\(reversed.stderr)")
    }

    @Test("a dialogue whose side B names side A's server as unix:PATH, with the default source, is refused")
    func dialogueOnOneServerWrittenTwoWays() throws {
        let source = try Self.defaultSource
        let output = try Self.parley(["dialog", "en-US", "es-ES", "--server-b", try Self.socket, "--source-b", source])
        #expect(output.status == 64)
        #expect(output.stderr.contains("sides A and B would share one microphone (\(source), the default source of the default server)"),
                "\(output.stderr)")
    }

    @Test("a party on the default source beside one on another source of that server opens the room")
    func twoSourcesAreTwoMicrophones() throws {
        let output = try CookieFileTests.parley(["room", "en-US,source=\(TestAudioServer.speakerSource),sink=parley_speaker",
                                                 "es-ES,sink=parley_speaker", "--recognizer", "pocketsphinx"])
        #expect(output.status == 0, "\(output.stderr)")
        #expect(output.stdout.contains("the room is open"), "\(output.stdout)")
    }
}

/// Refusals that name their own reason, not another one met on the way: one sentence, exit 64.
@Suite("Refusals name the reason")
struct RightReasonTests {
    @Test("an option that room does not have is named as such, whatever follows it")
    func unknownRoomOption() throws {
        for option in [["--turns", "auto"], ["--echo-cancel", "off"]] {
            let output = try CookieFileTests.parley(["room", "en-US,source=a", "fr-FR,source=b"] + option)
            #expect(output.status == 64)
            #expect(output.stderr.contains("\(option[0]) is not an option of room") && !output.stderr.contains("is not a locale"),
                    "\(output.stderr)")
        }
    }

    @Test("--simultaneous with --typed-only is refused: there is no microphone to interpret")
    func simultaneousTypedOnly() throws {
        let output = try CookieFileTests.parley(["dialog", "en-US", "es-ES", "--simultaneous", "--typed-only"])
        #expect(output.status == 64)
        #expect(output.stderr.contains("--simultaneous interprets a side while they speak into the microphone, which --typed-only never opens"),
                "\(output.stderr)")
    }

    @Test("--simultaneous without Whisper installed is refused, naming what is missing")
    func simultaneousWithoutWhisper() throws {
        let output = try CookieFileTests.parley(["dialog", "en-US", "es-ES", "--simultaneous", "--echo-cancel", "auto"],
                                                environment: ["PARLEY_WHISPER_PYTHON": "/nonexistent/python3"])
        #expect(output.status == 64)
        #expect(output.stderr.contains("--simultaneous commits words with Whisper, and the Whisper worker's Python environment (/nonexistent/python3) is not installed"),
                "\(output.stderr)")
    }
}
