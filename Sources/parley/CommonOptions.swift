import ArgumentParser
import Audio
import Locales
import Foundation
import Logging

/// Options every command that touches data or audio accepts.
struct CommonOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp("Directory of your pronunciation dictionaries and data overrides.", valueName: "dir"))
    var dictionaries: String?

    @Option(name: .long, help: ArgumentHelp("Directory of installed speech models, one folder per locale.", valueName: "dir"))
    var models: String?

    @Option(name: .long, help: ArgumentHelp("PulseAudio server address (default: $PULSE_SERVER or the session's).", valueName: "address"))
    var server: String?

    @Option(name: .long, help: ArgumentHelp("Microphone: a PulseAudio source name (default: the server's; see `parley devices`).", valueName: "name"))
    var source: String?

    @Option(name: .long, help: ArgumentHelp("Speaker: a PulseAudio sink name (default: the server's; see `parley devices`).", valueName: "name"))
    var sink: String?

    /// Audio session options for `--server`, `--source` and `--sink`.
    func audioSessionOptions() -> AudioSessionOptions {
        AudioSessionOptions(server: server, source: source, sink: sink)
    }

    /// Opens the audio session `--server`, `--source` and `--sink` describe. Without a
    /// server, the one sentence names `withoutServer`, this command's way to do without one.
    func openAudioSession(withoutServer: String?) async throws -> AudioSession {
        let session = AudioSession(options: audioSessionOptions(), logger: Logger(label: "parley.audio"))
        try await NoAudioServer.rephrasing(withoutServer) { try await session.open() }
        return session
    }

    /// The data directories, with the overrides given on the command line.
    func directories() throws -> DataDirectories {
        try DataDirectories.discover(userOverride: dictionaries, modelsOverride: models)
    }

    /// The locale tables from the shipped data and the user's overrides.
    func localeRegistry() throws -> LocaleRegistry {
        try LocaleRegistry.load(from: directories().layered)
    }
}

/// No audio server, said for one command: what it can do instead, or nothing.
struct NoAudioServer: Error, CustomStringConvertible {
    var unavailable: AudioServerUnavailable
    var withoutServer: String?

    var description: String { unavailable.described(offering: withoutServer) }

    /// Runs `body`; a missing server is said with `withoutServer` instead of the conversation's option.
    static func rephrasing<T>(_ withoutServer: String?, _ body: () async throws -> T) async throws -> T {
        do {
            return try await body()
        } catch let unavailable as AudioServerUnavailable {
            throw NoAudioServer(unavailable: unavailable, withoutServer: withoutServer)
        }
    }
}

/// Prints one sentence to stderr and ends the program with status 1.
func fail(_ error: any Error) -> ExitCode {
    printError(String(describing: error))
    return .failure
}

/// "1 entry", "2 entries": a count with its noun in the right number.
func counted(_ count: Int, _ one: String, _ many: String) -> String {
    "\(count) \(count == 1 ? one : many)"
}

/// Writes a line to standard error, whole as far as it takes it; a failing stderr is
/// ignored (there is nowhere left to report it), never a crash.
func printError(_ message: String) {
    let bytes = Array("parley: \(message)\n".utf8)
    if let capture = CommandCapture.current { return capture.append(bytes) }
    var offset = 0
    while offset < bytes.count {
        let written = bytes[offset...].withUnsafeBytes { write(STDERR_FILENO, $0.baseAddress, $0.count) }
        if written < 0, errno == EINTR { continue }
        guard written > 0 else { return }
        offset += written
    }
}

/// Runs `body`, turning any error into one line on stderr and exit status 1.
func reportingFailure<T>(_ body: () async throws -> T) async throws -> T {
    do {
        return try await body()
    } catch let exit as ExitCode {
        throw exit
    } catch {
        throw fail(error)
    }
}
