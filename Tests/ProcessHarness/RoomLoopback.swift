import Foundation

/// A simulated room on a PulseAudio server: `module-loopback` from `source` (a speaker's
/// monitor) into `sink` (a microphone's null sink), `latency` ms late and `decibels` louder
/// (negative: quieter) than it was played. `unload()` removes it.
///
/// With `keepsRate` the loopback keeps its rate (`adjust_time=0`): one that resamples to hold
/// its latency moves the echo against what was played by samples each second (measured: 1407
/// to 1459 samples over 10 s), which no room does.
public struct RoomLoopback: Sendable {
    /// The module index, for unloading.
    public let module: String
    private let environment: [String: String]?

    /// Loads the loopback and sets its level; throws, with the server's words, when it cannot.
    public init(from source: String, to sink: String, latency: Int, decibels: Double, keepsRate: Bool = false,
                environment: [String: String]? = nil) throws {
        let loaded = try ProcessRunner.run(["pactl", "load-module", "module-loopback", "source=\(source)",
                                            "sink=\(sink)", "latency_msec=\(latency)"] + (keepsRate ? ["adjust_time=0"] : []),
                                           environment: environment)
        guard loaded.status == 0 else { throw ProcessRunner.Failure(message: "no room loopback: \(loaded.stderr)") }
        (module, self.environment) = (loaded.stdout.trimmingCharacters(in: .whitespacesAndNewlines), environment)
        guard decibels != 0 else { return }
        let input = try sinkInput()
        let set = try ProcessRunner.run(["pactl", "set-sink-input-volume", input, "\(decibels)dB"], environment: environment)
        guard set.status == 0 else {
            unload()
            throw ProcessRunner.Failure(message: "cannot set the room's level: \(set.stderr)")
        }
    }

    /// Unloads the loopback.
    public func unload() {
        _ = try? ProcessRunner.run(["pactl", "unload-module", module], environment: environment)
    }

    /// The playback stream (sink input) the loopback module owns, once it exists.
    private func sinkInput() throws -> String {
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
        unload()
        throw ProcessRunner.Failure(message: "the room loopback (module \(module)) never showed its sink input")
    }
}
