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
    ///
    /// A program still running after `timeout` seconds is terminated (killed 5 s later)
    /// and the run throws: a hang is a failure that names the program, never a test
    /// run that waits for ever.
    @discardableResult
    public static func run(_ arguments: [String], input: Data? = nil,
                           environment: [String: String]? = nil, timeout: Double = 300) throws -> Output {
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
        guard waitForExit(process, seconds: timeout) else {
            throw Failure(message: "\(arguments.joined(separator: " ")) did not finish in \(Int(timeout)) s and was stopped")
        }
        process.waitUntilExit()
        // The pipes close when the program and every process it left behind holding them end.
        if group.wait(timeout: .now() + 10) == .timedOut {
            throw Failure(message: "\(arguments[0]) exited, but a process it started still holds its output open")
        }
        return Output(status: process.terminationStatus, stdout: String(decoding: outData, as: UTF8.self),
                      stderr: String(decoding: errData, as: UTF8.self))
    }

    /// Waits up to `seconds` for `process` to exit by itself; whether it did. One still
    /// running then is stopped (see `stop`), so the caller's expectations fail instead of waiting.
    @discardableResult
    public static func waitForExit(_ process: Process, seconds: Double = 60) -> Bool {
        let exited = exits(process, within: seconds)
        stop(process)
        return exited
    }

    /// Terminates `process`, and kills it if it is still running 5 s later.
    public static func stop(_ process: Process) {
        guard process.isRunning else { return }
        process.terminate()
        if !exits(process, within: 5) { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
    }

    /// Whether `process` is no longer running, looking every 10 ms for up to `seconds`.
    private static func exits(_ process: Process, within seconds: Double) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while process.isRunning && Date() < deadline { usleep(10_000) }
        return !process.isRunning
    }

    /// Starts `arguments` without waiting for it; its output is discarded.
    public static func start(_ arguments: [String], environment: [String: String]? = nil) throws -> Process {
        let process = makeProcess(arguments, environment: environment)
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        return process
    }

    /// A process for `arguments[0]` (resolved in PATH) with the rest as arguments, in
    /// `environment` (default: this process's) less what `scripts/run-tests.sh` sets for
    /// the test runner alone (see `childEnvironment`).
    public static func makeProcess(_ arguments: [String], environment: [String: String]? = nil) -> Process {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: resolve(arguments[0]))
        process.arguments = Array(arguments.dropFirst())
        process.environment = childEnvironment(environment)
        return process
    }

    /// `environment` (default: this process's) without coreutils' `stdbuf` preload.
    /// `scripts/run-tests.sh` runs the tests under `stdbuf -oL` so that their progress
    /// reaches the log line by line (a hung run can be told where it hung); the programs
    /// under test must keep their own buffering, or a missing flush would go unnoticed.
    public static func childEnvironment(_ environment: [String: String]? = nil) -> [String: String] {
        var environment = environment ?? ProcessInfo.processInfo.environment
        for name in ["_STDBUF_I", "_STDBUF_O", "_STDBUF_E"] { environment[name] = nil }
        if let preload = environment["LD_PRELOAD"] {
            let kept = preload.split(whereSeparator: { $0 == ":" || $0 == " " }).filter { !$0.contains("libstdbuf") }
            environment["LD_PRELOAD"] = kept.isEmpty ? nil : kept.joined(separator: ":")
        }
        return environment
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
