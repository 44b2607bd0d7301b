import Foundation

/// A null sink of its own on the test server, for one test: audio played into
/// `sink` is heard on `monitor`. Tests that play and record use one each, so
/// suites running in parallel never hear each other.
public final class LoopbackDevice: Sendable {
    /// The sink to play into.
    public let sink: String
    /// The source that hears the sink (`<sink>.monitor`).
    public var monitor: String { "\(sink).monitor" }
    private let moduleIndex: String

    /// Loads a null sink (rewinds off, like the shared ones) with a unique name.
    /// `rate` and `channels` set its format; 16 kHz mono suits a microphone.
    public init(label: String = "loop", rate: Int = 16_000, channels: Int = 1) throws {
        let name = "parley_\(label)_\(UUID().uuidString.prefix(8).lowercased())"
        let output = try ProcessRunner.run(
            ["pactl", "load-module", "module-null-sink", "sink_name=\(name)", "rate=\(rate)",
             "channels=\(channels)", "format=s16le", "norewinds=1"],
            environment: TestAudioServer.environment())
        guard output.status == 0 else {
            throw ProcessRunner.Failure(message: "pactl could not load a null sink: \(output.stderr)")
        }
        sink = name
        moduleIndex = output.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Unloads the sink.
    deinit {
        _ = try? ProcessRunner.run(["pactl", "unload-module", moduleIndex], environment: TestAudioServer.environment())
    }

    /// Plays a file into the sink with `paplay` (raw files need `rawFormat`, e.g. 16 kHz mono s16le),
    /// returning when playback has finished.
    @discardableResult
    public func play(_ path: String, raw: Bool = false) throws -> ProcessRunner.Output {
        var arguments = ["paplay", "--device=\(sink)"]
        if raw { arguments += ["--raw", "--rate=16000", "--channels=1", "--format=s16le"] }
        return try ProcessRunner.run(arguments + [path], environment: TestAudioServer.environment())
    }

    /// Records `seconds` of the monitor with `parec` into 16 kHz mono samples.
    ///
    /// `parec` is stopped with SIGKILL: a child of the test process inherits its blocked
    /// signal mask, so it never sees the SIGTERM `timeout` sends by default and would run
    /// forever. `--raw` writes headerless samples, which SIGKILL cannot leave half-finished.
    public func record(seconds: Double) throws -> [Int16] {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("rec-\(UUID().uuidString).raw").path
        defer { try? FileManager.default.removeItem(atPath: file) }
        try ProcessRunner.run(
            ["timeout", "--signal=KILL", String(seconds), "parec", "--device=\(monitor)", "--raw", "--rate=16000",
             "--channels=1", "--format=s16le", "--latency-msec=10", file],
            environment: TestAudioServer.environment())
        return (try? Fixtures.rawSamples(file)) ?? []
    }
}
