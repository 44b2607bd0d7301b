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

    /// The activation doctor reports is listening on streams already open: the wait for the
    /// next 2 ms capture fragment, where a freshly opened stream first waits for the source to
    /// deliver (about 50 ms on the test server's null sinks; BENCHMARKS.md, audio session). So
    /// it stays below a fresh `parec`'s wait for its first sample, started in the same way from
    /// this process. Each side is the least of three, so that one stall of a busy machine moves
    /// neither; a probe that reported the stream's start-up, or microseconds as milliseconds,
    /// would not stay below.
    @Test func doctorMeasuresActivationOnTheChosenDevices() throws {
        let info = try ProcessRunner.run(["pactl", "info"], environment: try TestAudioServer.environment()).stdout
        let field = { (name: String) in
            info.split(separator: "\n").first { $0.hasPrefix(name + ": ") }.map { String($0.dropFirst(name.count + 2)) } ?? "?"
        }
        // The server's own name and version, as `pactl info` reports them.
        let server = "\(field("Server Name")) \(field("Server Version"))"
        let expected = "\(server); sink \(TestAudioServer.microphoneSink); source \(TestAudioServer.speakerSource); activation "
        let pattern = "^PulseAudio +ok +" + NSRegularExpression.escapedPattern(for: expected) + "([0-9]+\\.[0-9]) ms$"
        var activations: [Double] = [], freshStreams: [Double] = []
        for _ in 0..<3 {
            let output = try ProcessRunner.parley(["doctor", "--source", TestAudioServer.speakerSource,
                                                   "--sink", TestAudioServer.microphoneSink])
            let row = output.stdout.split(separator: "\n").first { $0.hasPrefix("PulseAudio") }.map(String.init) ?? ""
            let match = try #require(try Regex(pattern).wholeMatch(in: row), "\(row)")
            let measured = try #require(match.output[1].substring)
            activations.append(try #require(Double(String(measured))))
            freshStreams.append(try Self.firstSampleOfFreshRecording(TestAudioServer.speakerSource))
        }
        // It may round to 0.0 ms: audio already waiting when the gate opens arrives at once.
        let (activation, fresh) = (activations.min() ?? .nan, freshStreams.min() ?? .nan)
        #expect(activation >= 0 && activation < fresh,
                "doctor's activations \(activations) ms, a fresh parec's first sample after \(freshStreams) ms")
    }

    /// Milliseconds from starting `parec` on `source` to its first sample on disk.
    private static func firstSampleOfFreshRecording(_ source: String) throws -> Double {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("fresh-\(UUID().uuidString).raw").path
        defer { try? FileManager.default.removeItem(atPath: file) }
        let started = ContinuousClock.now
        let process = try ProcessRunner.start(["parec", "--device=\(source)", "--raw", file],
                                              environment: TestAudioServer.environment())
        defer { process.tearDown(.kill) }
        while ((try? FileManager.default.attributesOfItem(atPath: file))?[.size] as? Int ?? 0) == 0 {
            guard process.isRunning, started.duration(to: .now) < .seconds(20) else {
                throw ProcessRunner.Failure(message: "parec recorded nothing of \(source) within 20 s")
            }
            usleep(500)
        }
        let elapsed = started.duration(to: .now).components
        return Double(elapsed.seconds) * 1000 + Double(elapsed.attoseconds) / 1e15
    }

    @Test func doctorNamesAMissingSink() throws {
        let output = try ProcessRunner.parley(["doctor", "--sink", "parley_no_such_sink"])
        #expect(output.status == 1)
        #expect(output.stdout.contains("there is no sink named parley_no_such_sink"))
    }
}
