import Foundation
import Testing
import TestSupport

/// `parley devices`, and the audio row of `parley doctor`, against the test server.
@Suite struct DevicesCommandTests {
    @Test func listsTheTestServersDevicesAsJSON() throws {
        let output = try ProcessRunner.parley(["devices", "--json"])
        #expect(output.status == 0)
        let devices = try output.stdout.split(separator: "\n").map {
            try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] ?? [:]
        }
        let speaker = devices.first { $0["name"] as? String == TestAudioServer.speakerSink }
        #expect(speaker?["kind"] as? String == "sink")
        #expect(speaker?["isDefault"] as? Bool == true)
        let microphone = devices.first { $0["name"] as? String == TestAudioServer.microphoneSource }
        #expect(microphone?["isMonitor"] as? Bool == true)
    }

    /// Without a server each command says so in one sentence, and offers its own way to do
    /// without one: `--typed-only` belongs to the conversation, not to these.
    @Test(arguments: [
        (["devices"], nil),
        (["listen"], "--file"),
        (["say", "Hello."], "--out"),
        (["dict", "say", "en", "hello"], "--out"),
    ] as [([String], String?)])
    func noServerIsOneSentenceAndStatusOne(command: [String], offered: String?) throws {
        let output = try ProcessRunner.parley(command + ["--server", "unix:/nonexistent/parley/native"], input: Data())
        #expect(output.status == 1)
        #expect(output.stderr.hasPrefix("parley: no PulseAudio server at unix:/nonexistent/parley/native"), "\(output.stderr)")
        #expect(output.stderr.split(separator: "\n").count == 1, "\(output.stderr)")
        if let offered {
            #expect(output.stderr.hasSuffix("or pass --server, or use \(offered)\n"), "\(output.stderr)")
        } else {
            #expect(output.stderr.hasSuffix("or pass --server\n"), "\(output.stderr)")
        }
    }

    @Test func doctorMeasuresActivationOnTheChosenDevices() throws {
        let output = try ProcessRunner.parley(["doctor", "--source", TestAudioServer.speakerSource,
                                               "--sink", TestAudioServer.microphoneSink])
        let row = output.stdout.split(separator: "\n").first { $0.hasPrefix("PulseAudio") }.map(String.init) ?? ""
        // The server's own name and version, as `pactl info` reports them.
        let info = try ProcessRunner.run(["pactl", "info"], environment: try TestAudioServer.environment()).stdout
        let field = { (name: String) in
            info.split(separator: "\n").first { $0.hasPrefix(name + ": ") }.map { String($0.dropFirst(name.count + 2)) } ?? "?"
        }
        let server = "\(field("Server Name")) \(field("Server Version"))"
        let expected = "\(server); sink \(TestAudioServer.microphoneSink); source \(TestAudioServer.speakerSource); activation "
        let pattern = "^PulseAudio +ok +" + NSRegularExpression.escapedPattern(for: expected) + "([0-9]+\\.[0-9]) ms$"
        let match = try #require(try Regex(pattern).wholeMatch(in: row), "\(row)")
        let measured = try #require(match.output[1].substring)
        let milliseconds = try #require(Double(String(measured)))
        // Measured on audio that arrived, within the probe's 5 s watchdog. It may round to 0.0 ms:
        // audio already waiting when the gate opens (a stalled machine delivers it in a burst)
        // arrives at once.
        #expect(milliseconds >= 0 && milliseconds < 5_000, "\(row)")
    }

    @Test func doctorNamesAMissingSink() throws {
        let output = try ProcessRunner.parley(["doctor", "--sink", "parley_no_such_sink"])
        #expect(output.status == 1)
        #expect(output.stdout.contains("there is no sink named parley_no_such_sink"))
    }
}
