import ChildProcesses
import Foundation

/// A null sink of its own on the test server, for one test: audio played into
/// `sink` is heard on `monitor`. Tests that play and record use one each, so
/// suites running in parallel never hear each other.
public final class LoopbackDevice: Sendable {
    private let nullSink: NullSink
    /// The sink to play into.
    public var sink: String { nullSink.name }
    /// The source that hears the sink (`<sink>.monitor`).
    public var monitor: String { nullSink.monitor }

    /// Loads a null sink (rewinds off, like the shared ones) with a unique name.
    /// `rate` and `channels` set its format; 16 kHz mono suits a microphone.
    public init(label: String = "loop", rate: Int = 16_000, channels: Int = 1) throws {
        nullSink = try NullSink(name: "parley_\(label)_\(UUID().uuidString.prefix(8).lowercased())",
                                format: NullSink.format(rate: rate, channels: channels),
                                environment: TestAudioServer.environment())
    }

    /// Unloads the sink.
    deinit { nullSink.unload() }

    /// Plays a file into the sink with `paplay` (raw files need `rawFormat`, e.g. 16 kHz mono s16le),
    /// returning when playback has finished.
    @discardableResult
    public func play(_ path: String, raw: Bool = false) throws -> ProcessRunner.Output {
        var arguments = ["paplay", "--device=\(sink)"]
        if raw { arguments += ["--raw", "--rate=16000", "--channels=1", "--format=s16le"] }
        return try ProcessRunner.run(arguments + [path], environment: TestAudioServer.environment())
    }

    /// Starts recording the monitor with `parec`; returns once samples arrive, so that what
    /// is played from now on is heard from its first sample, however long the server took.
    public func startRecording() throws -> Recording {
        try Recording(monitor: monitor)
    }
}

/// A `parec` recording of a monitor, into 16 kHz mono samples.
///
/// `parec` is stopped with SIGKILL, at once: `--raw` writes headerless samples, which
/// SIGKILL cannot leave half-finished.
public final class Recording: Sendable {
    private let process: SpawnedProcess
    private let file: String

    /// Starts recording any source, as `LoopbackDevice.startRecording` records its monitor;
    /// `environment` (`PULSE_SERVER`, `PULSE_COOKIE`) for a server other than the test server.
    public convenience init(source: String, environment: [String: String]? = nil) throws {
        try self.init(monitor: source, environment: environment)
    }

    init(monitor: String, environment: [String: String]? = nil) throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("rec-\(UUID().uuidString).raw").path
        process = try ProcessRunner.start(
            ["parec", "--device=\(monitor)", "--raw", "--rate=16000", "--channels=1", "--format=s16le",
             "--latency-msec=10", file],
            environment: environment ?? TestAudioServer.environment())
        self.file = file
        // A null sink's monitor delivers silence as soon as the stream runs: the file grows.
        let deadline = Date().addingTimeInterval(20)
        while Self.size(of: file) == 0 {
            guard process.isRunning, Date() < deadline else {
                stopProcess()
                throw ProcessRunner.Failure(message: "parec did not start recording \(monitor) within 20 s")
            }
            usleep(10_000)
        }
    }

    /// Every sample recorded so far, while the recording goes on.
    public func samplesSoFar() -> [Int16] {
        guard let data = FileManager.default.contents(atPath: file) else { return [] }
        return data.prefix(data.count / 2 * 2).withUnsafeBytes { Array($0.bindMemory(to: Int16.self)) }
    }

    /// Records `tail` seconds more, stops, and returns every sample since the start.
    ///
    /// The tail is counted in recorded samples, not in waiting time: a `parec` that a busy
    /// machine runs late still writes what was played before the call.
    public func stop(after tail: Double = 0.3) throws -> [Int16] {
        let target = Self.size(of: file) + Int(tail * 16_000) * 2
        let deadline = Date().addingTimeInterval(10 + tail)
        while Self.size(of: file) < target && process.isRunning && Date() < deadline {
            usleep(10_000)
        }
        stopProcess()
        defer { try? FileManager.default.removeItem(atPath: file) }
        return try Fixtures.rawSamples(file)
    }

    deinit {
        stopProcess()
        try? FileManager.default.removeItem(atPath: file)
    }

    private func stopProcess() {
        process.tearDown(.kill)
    }

    private static func size(of path: String) -> Int {
        ((try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? Int) ?? 0
    }
}
