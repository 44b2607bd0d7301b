public import Foundation

/// Runs programs without a shell: to completion with what they printed captured,
/// or started in the background with their output discarded.
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
        let process = makeProcess(arguments, environment: environment)
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

    /// Starts `arguments` without waiting for it; its output is discarded.
    public static func start(_ arguments: [String], environment: [String: String]? = nil) throws -> Process {
        let process = makeProcess(arguments, environment: environment)
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        return process
    }

    /// A process for `arguments[0]` (resolved in PATH) with the rest as arguments.
    static func makeProcess(_ arguments: [String], environment: [String: String]?) -> Process {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: resolve(arguments[0]))
        process.arguments = Array(arguments.dropFirst())
        if let environment { process.environment = environment }
        return process
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
}
