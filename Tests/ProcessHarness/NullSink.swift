import Foundation

/// A null sink loaded on the PulseAudio server (`pactl load-module module-null-sink`):
/// what is played into it is heard on its monitor, and nowhere else.
public struct NullSink: Sendable {
    /// The sink's name.
    public let name: String
    /// The module index `pactl` returned, for unloading.
    public let module: String
    private let environment: [String: String]?

    /// The source that hears the sink.
    public var monitor: String { "\(name).monitor" }

    /// The arguments for a 16 kHz mono sink with rewinds off, the format of a microphone.
    public static func format(rate: Int = 16_000, channels: Int = 1) -> [String] {
        ["rate=\(rate)", "channels=\(channels)", "format=s16le", "norewinds=1"]
    }

    /// Loads a sink called `name` with the module arguments in `format` (none: the server's defaults);
    /// `environment` (e.g. with `PULSE_SERVER`) is `pactl`'s.
    public init(name: String, format: [String] = [], environment: [String: String]? = nil) throws {
        let output = try ProcessRunner.run(["pactl", "load-module", "module-null-sink", "sink_name=\(name)"] + format,
                                           environment: environment)
        let module = output.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        guard output.status == 0, Int(module) != nil else {
            throw ProcessRunner.Failure(message: "pactl could not load a null sink: \(output.stderr)\(output.stdout)")
        }
        (self.name, self.module, self.environment) = (name, module, environment)
    }

    /// Unloads the sink (`pactl unload-module`).
    public func unload() {
        _ = try? ProcessRunner.run(["pactl", "unload-module", module], environment: environment)
    }
}
