public import Foundation

/// Runs a program to completion and captures what it printed. No shell.
public enum ProcessRunner {
    /// What a finished process left behind.
    public struct Output: Sendable {
        /// Exit status (or the terminating signal's number).
        public var status: Int32
        /// Standard output as UTF-8.
        public var stdout: String
        /// Standard error as UTF-8.
        public var stderr: String
    }

    /// A process could not be started or did something unexpected.
    public struct Failure: Error, CustomStringConvertible {
        public var message: String
        public init(message: String) { self.message = message }
        public var description: String { message }
    }

    /// Runs `arguments[0]` (a path, or a name looked up in PATH) with the rest as arguments,
    /// feeding `input` on stdin; both pipes are drained while it runs.
    @discardableResult
    public static func run(_ arguments: [String], input: Data? = nil,
                           environment: [String: String]? = nil) throws -> Output {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: resolve(arguments[0]))
        process.arguments = Array(arguments.dropFirst())
        if let environment { process.environment = environment }
        let stdout = Pipe(), stderr = Pipe(), stdin = Pipe()
        process.standardOutput = stdout
        process.standardError = stderr
        process.standardInput = stdin
        try process.run()
        let group = DispatchGroup()
        nonisolated(unsafe) var outData = Data(), errData = Data()
        DispatchQueue.global().async(group: group) { outData = stdout.fileHandleForReading.readDataToEndOfFile() }
        DispatchQueue.global().async(group: group) { errData = stderr.fileHandleForReading.readDataToEndOfFile() }
        if let input { stdin.fileHandleForWriting.write(input) }
        try? stdin.fileHandleForWriting.close()
        process.waitUntilExit()
        group.wait()
        return Output(status: process.terminationStatus, stdout: String(decoding: outData, as: UTF8.self),
                      stderr: String(decoding: errData, as: UTF8.self))
    }

    /// The full path of a program name found in PATH; a path is returned as is.
    public static func resolve(_ program: String) -> String {
        guard !program.contains("/") else { return program }
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for directory in path.split(separator: ":") {
            let candidate = "\(directory)/\(program)"
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        return program
    }

    /// The `parley` binary built beside the test bundle.
    public static var parleyBinary: String {
        let bundleDirectory = Bundle.main.bundleURL.path
        let candidates = [bundleDirectory, (bundleDirectory as NSString).deletingLastPathComponent]
        return candidates.map { "\($0)/parley" }.first { FileManager.default.isExecutableFile(atPath: $0) }
            ?? "\(bundleDirectory)/parley"
    }

    /// Runs the built `parley` with `arguments`, using the test audio server.
    @discardableResult
    public static func parley(_ arguments: [String], input: Data? = nil,
                              environment extra: [String: String] = [:]) throws -> Output {
        var environment = try TestAudioServer.environment()
        environment["NO_COLOR"] = "1"
        environment.merge(extra) { _, new in new }
        return try run([parleyBinary] + arguments, input: input, environment: environment)
    }
}
