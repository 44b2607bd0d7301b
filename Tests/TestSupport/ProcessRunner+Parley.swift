@_exported public import ProcessHarness
public import Foundation

extension ProcessRunner {
    /// The `parley` binary built beside the test bundle.
    public static var parleyBinary: String {
        let bundleDirectory = Bundle.main.bundleURL.path
        let candidates = [bundleDirectory, (bundleDirectory as NSString).deletingLastPathComponent]
        return candidates.map { "\($0)/parley" }.first { FileManager.default.isExecutableFile(atPath: $0) }
            ?? "\(bundleDirectory)/parley"
    }

    /// Runs the built `parley` with `arguments`, using the test audio server. A conversation
    /// runs with Parley's defaults (an echo canceller, barge-in) unless `arguments` say otherwise.
    @discardableResult
    public static func parley(_ arguments: [String], input: Data? = nil,
                              environment extra: [String: String] = [:]) throws -> Output {
        try run([parleyBinary] + arguments, input: input, environment: parleyEnvironment(extra))
    }

    /// The environment of a `parley` under test: the test audio server, no colours, and `extra`.
    static func parleyEnvironment(_ extra: [String: String]) throws -> [String: String] {
        var environment = try TestAudioServer.environment()
        environment["NO_COLOR"] = "1"
        environment.merge(extra) { _, new in new }
        return environment
    }
}

extension ChildProcess {
    /// Starts the built `parley` against the test audio server.
    public static func parley(_ arguments: [String], environment extra: [String: String] = [:]) throws -> ChildProcess {
        try ChildProcess([ProcessRunner.parleyBinary] + arguments,
                         environment: ProcessRunner.parleyEnvironment(extra))
    }
}
