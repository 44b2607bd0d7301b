import Logging
import Foundation

/// Logging for the executable: one line per message on stderr, so stdout stays
/// the program's own output. `PARLEY_LOG=debug` (or info, warning…) sets the level.
enum StderrLog {
    static func handler(label: String) -> any LogHandler {
        var handler = StreamLogHandler.standardError(label: label)
        let level = ProcessInfo.processInfo.environment["PARLEY_LOG"].flatMap(Logger.Level.init(rawValue:))
        handler.logLevel = level ?? .warning
        return handler
    }
}
