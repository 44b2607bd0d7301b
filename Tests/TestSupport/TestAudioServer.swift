import Foundation

/// The private PulseAudio server the audio tests run against.
///
/// `make test` starts it and exports `PULSE_SERVER`. When the tests run by hand
/// without that variable, the first use starts the same server with
/// `scripts/pulse-server.sh` and stops it when the test process exits.
public enum TestAudioServer {
    /// The server address (`unix:/…/native`), starting the server if needed.
    public static var address: String {
        get throws { try shared.get() }
    }

    /// The sink to play "microphone" audio into; record its monitor to hear it.
    public static let microphoneSink = "parley_mic"
    /// The source that hears what is played into `microphoneSink`.
    public static let microphoneSource = "parley_mic.monitor"
    /// The sink Parley speaks into.
    public static let speakerSink = "parley_speaker"
    /// The source that hears what Parley speaks.
    public static let speakerSource = "parley_speaker.monitor"

    /// The environment for a child process that must use the test server.
    public static func environment() throws -> [String: String] {
        var environment = ProcessInfo.processInfo.environment
        environment["PULSE_SERVER"] = try address
        return environment
    }

    private static let shared: Result<String, any Error> = Result {
        if let existing = ProcessInfo.processInfo.environment["PULSE_SERVER"], !existing.isEmpty {
            return existing
        }
        let directory = try Fixtures.temporaryDirectory("parley-pulse").path
        let script = Fixtures.repository.appendingPathComponent("scripts/pulse-server.sh").path
        let output = try ProcessRunner.run(["/bin/bash", script, "start", directory])
        guard output.status == 0, let line = output.stdout.split(separator: "\n").last,
              line.hasPrefix("PULSE_SERVER=") else {
            throw ProcessRunner.Failure(message: "the test PulseAudio server did not start: \(output.stderr)")
        }
        let address = String(line.dropFirst("PULSE_SERVER=".count))
        setenv("PULSE_SERVER", address, 1)
        stopDirectory = directory
        atexit {
            guard let directory = TestAudioServer.stopDirectory else { return }
            let script = Fixtures.repository.appendingPathComponent("scripts/pulse-server.sh").path
            _ = try? ProcessRunner.run(["/bin/bash", script, "stop", directory])
            try? FileManager.default.removeItem(atPath: directory)
        }
        return address
    }

    nonisolated(unsafe) private static var stopDirectory: String?
}
