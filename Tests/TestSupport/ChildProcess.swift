import Foundation

/// A program running beside a test: the test writes its standard input when it
/// likes and waits for lines on its standard output or error. No shell.
public final class ChildProcess: @unchecked Sendable {
    private let process = Process()
    private let input = Pipe()
    private let lock = NSLock()
    private var outputText = ""
    private var errorText = ""
    private let finished = DispatchGroup()

    /// Starts `arguments[0]` (a path or a name in PATH) with the rest as arguments.
    public init(_ arguments: [String], environment: [String: String]? = nil) throws {
        process.executableURL = URL(fileURLWithPath: ProcessRunner.resolve(arguments[0]))
        process.arguments = Array(arguments.dropFirst())
        if let environment { process.environment = environment }
        let output = Pipe(), errors = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        collect(output.fileHandleForReading) { self.outputText += $0 }
        collect(errors.fileHandleForReading) { self.errorText += $0 }
    }

    /// Starts the built `parley` against the test audio server.
    public static func parley(_ arguments: [String], environment extra: [String: String] = [:]) throws -> ChildProcess {
        var environment = try TestAudioServer.environment()
        environment["NO_COLOR"] = "1"
        environment.merge(extra) { _, new in new }
        return try ChildProcess([ProcessRunner.parleyBinary] + arguments, environment: environment)
    }

    /// Everything printed on standard output so far.
    public var stdout: String { lock.withLock { outputText } }
    /// Everything printed on standard error so far.
    public var stderr: String { lock.withLock { errorText } }

    /// Writes a line to the program's standard input.
    public func send(_ line: String) {
        input.fileHandleForWriting.write(Data((line + "\n").utf8))
    }

    /// Closes the program's standard input.
    public func closeInput() {
        try? input.fileHandleForWriting.close()
    }

    /// Waits until `predicate` holds for (stdout, stderr), or `seconds` pass; whether it held.
    @discardableResult
    public func waitFor(seconds: Double = 30, _ predicate: (_ stdout: String, _ stderr: String) -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if lock.withLock({ predicate(outputText, errorText) }) { return true }
            usleep(20_000)
        }
        return false
    }

    /// Waits for the program to exit (killing it after `seconds`) and returns its status.
    @discardableResult
    public func wait(seconds: Double = 30) -> Int32 {
        let deadline = Date().addingTimeInterval(seconds)
        while process.isRunning && Date() < deadline { usleep(20_000) }
        if process.isRunning { process.terminate() }
        process.waitUntilExit()
        finished.wait()
        return process.terminationStatus
    }

    /// Sends a signal, e.g. SIGINT for Ctrl-C.
    public func signal(_ number: Int32) {
        kill(process.processIdentifier, number)
    }

    deinit {
        if process.isRunning { process.terminate() }
    }

    private func collect(_ handle: FileHandle, into append: @escaping @Sendable (String) -> Void) {
        finished.enter()
        DispatchQueue.global().async {
            while true {
                let data = handle.availableData
                if data.isEmpty { break }
                let text = String(decoding: data, as: UTF8.self)
                self.lock.withLock { append(text) }
            }
            self.finished.leave()
        }
    }
}
