import Foundation

/// Where Parley finds its shipped data and keeps a person's own files.
///
/// Shipped data (`locales.tsv`, `locale-priority.tsv`, the pronunciation
/// dictionaries and IPA tables) is looked for, in order: `$PARLEY_DATA_DIR`,
/// the install prefix's `share/parley/dictionaries` beside the binary's
/// `bin/`, a `dictionaries` folder next to the binary, then the source tree
/// (for `swift run` and `swift test`). A person's files live in the XDG
/// directories, and `--dictionaries DIR` replaces the user data directory.
public struct DataDirectories: Sendable, Equatable {
    /// The shipped, read-only data.
    public var shipped: String
    /// A person's overrides and edits (`--dictionaries`, or XDG data).
    public var user: String
    /// Speech models a person installs, one folder per locale (`--models`, or XDG data).
    public var models: String
    /// History and transcripts (XDG state).
    public var state: String

    /// Creates directories from known paths.
    public init(shipped: String, user: String, models: String, state: String) {
        self.shipped = shipped
        self.user = user
        self.models = models
        self.state = state
    }

    /// Finds the shipped data and derives the user directories from the environment.
    /// Throws when no shipped data directory exists anywhere it is looked for.
    public static func discover(userOverride: String? = nil, modelsOverride: String? = nil,
                                environment: [String: String]? = nil,
                                executablePath: String?? = nil) throws -> DataDirectories {
        let environment = environment ?? ProcessInfo.processInfo.environment
        let executablePath = executablePath ?? currentExecutablePath()
        let candidates = shippedCandidates(environment: environment, executablePath: executablePath)
        guard let shipped = candidates.first(where: isDataDirectory) else {
            throw DataFileError(path: candidates.first ?? "dictionaries", line: 0,
                                message: "Parley's data directory was not found (looked in \(candidates.joined(separator: ", "))); set PARLEY_DATA_DIR or reinstall")
        }
        let home = environment["HOME"] ?? NSHomeDirectory()
        let stateHome = environment["XDG_STATE_HOME"].flatMap(nonEmpty) ?? "\(home)/.local/state"
        return DataDirectories(shipped: shipped,
                               user: userOverride ?? "\(personalData(environment: environment))/dictionaries",
                               models: modelsOverride ?? defaultModels(environment: environment),
                               state: "\(stateHome)/parley")
    }

    /// Where Parley keeps what a person edits or installs: `$XDG_DATA_HOME/parley`
    /// (`~/.local/share/parley`); the Whisper environment lives here too.
    public static func personalData(environment: [String: String]? = nil) -> String {
        let environment = environment ?? ProcessInfo.processInfo.environment
        let home = environment["HOME"] ?? NSHomeDirectory()
        return (environment["XDG_DATA_HOME"].flatMap(nonEmpty) ?? "\(home)/.local/share") + "/parley"
    }

    /// The models directory without `--models`: `$PARLEY_MODELS_DIR`, as `make models` uses it,
    /// else `models` under `personalData`.
    public static func defaultModels(environment: [String: String]? = nil) -> String {
        let environment = environment ?? ProcessInfo.processInfo.environment
        return environment["PARLEY_MODELS_DIR"].flatMap(nonEmpty) ?? "\(personalData(environment: environment))/models"
    }

    /// Shipped first, then the user's overrides: the order data is layered in.
    public var layered: [String] { [shipped, user] }

    /// The places shipped data is looked for, in order.
    static func shippedCandidates(environment: [String: String], executablePath: String?) -> [String] {
        var list: [String] = []
        if let explicit = environment["PARLEY_DATA_DIR"].flatMap(nonEmpty) { list.append(explicit) }
        if let executablePath {
            let binDirectory = (executablePath as NSString).deletingLastPathComponent
            let prefix = (binDirectory as NSString).deletingLastPathComponent
            list.append("\(prefix)/share/parley/dictionaries")
            list.append("\(binDirectory)/dictionaries")
        }
        list.append(sourceTreeDataDirectory)
        return list
    }

    /// `dictionaries/` of the source tree this file was compiled from.
    public static let sourceTreeDataDirectory: String = {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { url.deleteLastPathComponent() }  // Locales, Sources, repository
        return url.appendingPathComponent("dictionaries").path
    }()

    private static func isDataDirectory(_ path: String) -> Bool {
        FileManager.default.fileExists(atPath: "\(path)/\(LocaleRegistry.catalogFileName)")
    }

    private static func nonEmpty(_ text: String) -> String? { text.isEmpty ? nil : text }

    /// The running binary's path, from `/proc/self/exe`.
    public static func currentExecutablePath() -> String? {
        try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")
    }
}
