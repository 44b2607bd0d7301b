import Foundation
import ProcessHarness
#if canImport(Glibc)
import Glibc
#endif

/// A real Wyoming server for a test, on 127.0.0.1 and a free port (`scripts/wyoming-server.sh`,
/// from the environment `make test` installs): speech recognition by wyoming-faster-whisper with
/// Parley's installed Whisper model, or (`voice`) wyoming-piper with the en_US joe voice. It
/// stops when `stop()` is called, when it is released, or when the test process ends, however
/// it ends.
public final class WyomingTestServer: Sendable {
    public let port: Int
    private let process: ChildProcess

    /// Starts a server and returns once it accepts connections; throws, with its output, when
    /// it does not within `seconds`.
    public init(voice: Bool = false, threads: Int = 1, seconds: Double = 120) throws {
        port = try Self.freePort()
        process = try ChildProcess([Fixtures.repository.appendingPathComponent("scripts/wyoming-server.sh").path]
                                   + (voice ? ["--tts"] : []) + [String(port), String(threads)])
        let deadline = Date().addingTimeInterval(seconds)
        while !Self.accepts(port) {
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

    /// Whether something accepts connections on 127.0.0.1:`port`.
    static func accepts(_ port: Int) -> Bool {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(descriptor) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
            }
        }
    }
}
