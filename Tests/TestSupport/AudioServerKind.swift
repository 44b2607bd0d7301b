import Foundation

/// Which server answers on the test server's socket: `make test` runs the audio tests
/// on a private PulseAudio server and again on a private pipewire-pulse server.
extension TestAudioServer {
    /// The server's name as `pactl info` gives it ("pulseaudio", "PulseAudio (on PipeWire 0.3.65)").
    public static var serverName: String {
        get throws { try name.get() }
    }

    /// Whether the test server is PipeWire's pipewire-pulse.
    public static var isPipeWire: Bool {
        get throws { try serverName.contains("PipeWire") }
    }

    /// The script that starts and stops a private server of the test server's kind
    /// (`start DIR` prints `PULSE_SERVER=…`, `stop DIR`).
    public static var serverScript: String {
        get throws {
            let script = try isPipeWire ? "scripts/pipewire-server.sh" : "scripts/pulse-server.sh"
            return Fixtures.repository.appendingPathComponent(script).path
        }
    }

    private static let name: Result<String, any Error> = Result {
        let output = try ProcessRunner.run(["pactl", "info"], environment: environment())
        guard output.status == 0,
              let line = output.stdout.split(separator: "\n").first(where: { $0.hasPrefix("Server Name: ") }) else {
            throw ProcessRunner.Failure(message: "pactl info did not name the test server: \(output.stderr)")
        }
        return String(line.dropFirst("Server Name: ".count))
    }
}
