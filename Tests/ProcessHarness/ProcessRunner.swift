public import ChildProcesses
public import Foundation

/// Runs programs without a shell: to completion with what they printed captured,
/// or started in the background with their output discarded. Every program is a
/// ChildProcesses `SpawnedProcess`: its own process group, no descriptor of the
/// test runner's but its standard streams, default signal dispositions.
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
    /// run that waits for ever. So does output still open 10 s after the exit, held by a
    /// process the program left behind.
    @discardableResult
    public static func run(_ arguments: [String], input: Data? = nil,
                           environment: [String: String]? = nil, timeout: Double = 300) throws -> Output {
        do {
            let run = try ToolRun([resolve(arguments[0])] + arguments.dropFirst(), input: [UInt8](input ?? Data()),
                                  environment: childEnvironment(environment), name: arguments[0], timeout: timeout,
                                  limit: .max, errorLimit: .max, teardown: .terminate(grace: 5))
            return Output(status: status(run.termination), stdout: run.outputText, stderr: run.errors.text)
        } catch let failure as ChildProcessFailure {
            guard case .timedOut = failure.kind else { throw Failure(message: failure.description) }
            throw Failure(message: "\(arguments.joined(separator: " ")) did not finish in \(Int(timeout)) s and was stopped")
        }
    }

    /// Waits up to `seconds` for `process` to exit by itself; whether it did. One still
    /// running then is stopped (see `stop`), so the caller's expectations fail instead of waiting.
    @discardableResult
    public static func waitForExit(_ process: SpawnedProcess, seconds: Double = 60) -> Bool {
        let exited = process.reap(within: seconds) != nil
        stop(process)
        return exited
    }

    /// Terminates `process`, and kills it if it is still running 5 s later; reaps it.
    public static func stop(_ process: SpawnedProcess) {
        process.tearDown(.terminate(grace: 5))
    }

    /// Starts `arguments` without waiting for it; its standard streams are /dev/null unless
    /// given (`.pipe`: the caller writes `input` or reads `output`, `errors`).
    public static func start(_ arguments: [String], environment: [String: String]? = nil,
                             standardInput: SpawnedProcess.Stream = .discarded,
                             standardOutput: SpawnedProcess.Stream = .discarded,
                             standardError: SpawnedProcess.Stream = .discarded) throws -> SpawnedProcess {
        try SpawnedProcess([resolve(arguments[0])] + arguments.dropFirst(), environment: childEnvironment(environment),
                           name: arguments[0], standardInput: standardInput, standardOutput: standardOutput,
                           standardError: standardError)
    }

    /// `termination` as `Output.status` gives it: the exit code, or the number of the signal
    /// that ended the program (-1 when the status was lost).
    public static func status(_ termination: SpawnedProcess.Termination) -> Int32 {
        switch termination {
        case let .exited(code): code
        case let .signalled(signal): signal
        case .lost: -1
        }
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
