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

/// A private server of the test server's kind in a directory of its own, for tests
/// that kill and restart a server under a session.
public struct PrivateAudioServer: Sendable {
    public let directory: String

    public init(directory: String) {
        self.directory = directory
    }

    /// Starts the server and returns its address (`unix:…`).
    @discardableResult
    public func start() throws -> String {
        let output = try ProcessRunner.run(["/bin/bash", try TestAudioServer.serverScript, "start", directory])
        guard output.status == 0, let line = output.stdout.split(separator: "\n").last,
              line.hasPrefix("PULSE_SERVER=") else {
            throw ProcessRunner.Failure(message: "the private server did not start: \(Self.oneLine(output.stderr))")
        }
        return String(line.dropFirst("PULSE_SERVER=".count))
    }

    /// Starts a private PulseAudio server that also listens on `tcp:127.0.0.1:PORT`, as a
    /// server on another machine would, with cookie authentication only; its address and the
    /// cookie file a client needs (`PULSE_COOKIE`).
    public func startOverTCP(port: Int) throws -> (address: String, cookie: String) {
        let script = Fixtures.repository.appendingPathComponent("scripts/pulse-server.sh").path
        var environment = ProcessInfo.processInfo.environment
        environment["PARLEY_SERVER_TCP_PORT"] = "\(port)"
        let output = try ProcessRunner.run(["/bin/bash", script, "start", directory], environment: environment)
        let lines = output.stdout.split(separator: "\n")
        guard output.status == 0, let server = lines.last, server.hasPrefix("PULSE_SERVER="),
              let cookie = lines.first(where: { $0.hasPrefix("PULSE_COOKIE=") }) else {
            throw ProcessRunner.Failure(message: "the private server did not start: \(Self.oneLine(output.stderr))")
        }
        return (String(server.dropFirst("PULSE_SERVER=".count)), String(cookie.dropFirst("PULSE_COOKIE=".count)))
    }

    /// Stops the server (the script gives each process 5 s before SIGKILL), with the script
    /// that started it: a server over TCP is PulseAudio's whatever the test server is (its
    /// script keeps the process id in `DIR/pid`).
    public func stop() throws {
        let pulse = FileManager.default.fileExists(atPath: URL(fileURLWithPath: directory).appendingPathComponent("pid").path)
        let script = pulse ? Fixtures.repository.appendingPathComponent("scripts/pulse-server.sh").path : try TestAudioServer.serverScript
        let output = try ProcessRunner.run(["/bin/bash", script, "stop", directory])
        guard output.status == 0 else {
            throw ProcessRunner.Failure(message: "the private server did not stop: \(Self.oneLine(output.stderr))")
        }
    }

    /// Restarts pipewire-pulse alone, as a desktop's `systemctl --user restart pipewire-pulse`
    /// does: its clients lose the connection, pipewire and its sinks stay. PipeWire servers only.
    public func restartPipeWirePulse() throws {
        let script = Fixtures.repository.appendingPathComponent("scripts/pipewire-server.sh").path
        let output = try ProcessRunner.run(["/bin/bash", script, "restart-pulse", directory])
        guard output.status == 0 else {
            throw ProcessRunner.Failure(message: "pipewire-pulse did not restart: \(Self.oneLine(output.stderr))")
        }
    }

    /// The script's diagnosis on one line: a failed test's summary shows only the
    /// first line of its message.
    private static func oneLine(_ text: String) -> String {
        text.split(whereSeparator: \.isNewline).joined(separator: " | ")
    }
}
