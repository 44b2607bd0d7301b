import Foundation

/// A simulated room on the test server: what is played into `speaker` reaches `microphone`
/// through `module-loopback`, `latency` ms late and `decibels` louder (negative: quieter) than
/// it was played. Unloaded when the room goes.
public final class EchoRoom: Sendable {
    private let module: String

    /// Loads the loopback and sets its level; throws, with the server's words, when it cannot.
    public init(from speaker: LoopbackDevice, to microphone: LoopbackDevice, latency: Int, decibels: Double) throws {
        let environment = try TestAudioServer.environment()
        let loaded = try ProcessRunner.run(["pactl", "load-module", "module-loopback", "source=\(speaker.monitor)",
                                            "sink=\(microphone.sink)", "latency_msec=\(latency)"], environment: environment)
        guard loaded.status == 0 else { throw ProcessRunner.Failure(message: "no room loopback: \(loaded.stderr)") }
        module = loaded.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        guard decibels != 0 else { return }
        let input = try Self.sinkInput(of: module, environment: environment)
        let set = try ProcessRunner.run(["pactl", "set-sink-input-volume", input, "\(decibels)dB"], environment: environment)
        guard set.status == 0 else { throw ProcessRunner.Failure(message: "cannot set the room's level: \(set.stderr)") }
    }

    deinit {
        _ = try? ProcessRunner.run(["pactl", "unload-module", module], environment: TestAudioServer.environment())
    }

    /// The playback stream (sink input) the loopback module owns, once it exists.
    private static func sinkInput(of module: String, environment: [String: String]) throws -> String {
        let deadline = Date().addingTimeInterval(10)
        repeat {
            let listed = try ProcessRunner.run(["pactl", "list", "sink-inputs"], environment: environment).stdout
            var current: String?
            for line in listed.split(separator: "\n").map({ $0.trimmingCharacters(in: .whitespaces) }) {
                if line.hasPrefix("Sink Input #") { current = String(line.dropFirst("Sink Input #".count)) }
                if line == "Owner Module: \(module)", let current { return current }
            }
            usleep(50_000)
        } while Date() < deadline
        throw ProcessRunner.Failure(message: "the room loopback (module \(module)) never showed its sink input")
    }
}
