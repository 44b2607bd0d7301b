import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A real Wyoming server for a test or the bench, on 127.0.0.1 and a free port
/// (`scripts/wyoming-server.sh`, from the environment `make test` and `make bench` install):
/// speech recognition by wyoming-faster-whisper with Parley's installed Whisper model, or
/// (`voice`) wyoming-piper with the en_US joe voice. It stops when `stop()` is called, when it is
/// released, or when the process that started it ends, however it ends.
public final class WyomingTestServer: Sendable {
    public let port: Int
    private let process: ChildProcess

    /// Starts a server with `script` (the path of `scripts/wyoming-server.sh`) and returns once
    /// it accepts connections; throws, with its output, when it does not within `seconds`.
    public init(script: String, voice: Bool = false, threads: Int = 1, seconds: Double = 120) throws {
        port = try Self.freePort()
        process = try ChildProcess([script] + (voice ? ["--tts"] : []) + [String(port), String(threads)])
        let deadline = Date().addingTimeInterval(seconds)
        while !LoopbackSocket.accepts(port) {
            guard process.isRunning, Date() < deadline else {
                process.signal(SIGTERM)
                throw ProcessRunner.Failure(message: "the Wyoming server did not start on port \(port): \(process.stderr)")
            }
            usleep(100_000)
        }
    }

    /// `wyoming:tcp://127.0.0.1:PORT`.
    public var address: String { "wyoming:tcp://127.0.0.1:\(port)" }

    /// The voice server's one voice, `wyoming:tcp://127.0.0.1:PORT#en_US-joe-medium`.
    public var joe: String { "\(address)#\(Self.joeVoice)" }

    /// The name of the one Piper voice the registry ships.
    public static let joeVoice = "en_US-joe-medium"

    /// Whether the server still runs.
    public var isRunning: Bool { process.isRunning }

    /// What the server printed (its log is on standard error).
    public var log: String { process.stderr }

    /// Stops the server (SIGTERM) and waits for it to end.
    public func stop() {
        process.signal(SIGTERM)
        _ = process.wait(seconds: 10)
    }

    /// Kills the server at once (SIGKILL to its process group), as a crash would.
    public func kill() {
        Glibc.kill(-process.pid, SIGKILL)
        _ = process.wait(seconds: 10)
    }

    deinit { process.signal(SIGTERM) }

    /// A port nobody listens on now: one the kernel chose for a socket closed again.
    public static func freePort() throws -> Int {
        let (descriptor, port) = try LoopbackSocket.bound()
        close(descriptor)
        return port
    }
}
