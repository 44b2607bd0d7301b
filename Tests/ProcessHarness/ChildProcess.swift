import Foundation
import Synchronization

/// A program running beside its caller: the caller writes its standard input when
/// it likes and waits for what it prints on standard output or error. No shell.
///
/// On a pseudo-terminal the program believes a person is typing: its standard
/// input, output and error are the terminal, so everything it prints is `stdout`.
public final class ChildProcess: Sendable {
    /// Where the program's standard input and output go.
    public enum Terminal: Sendable { case pipe, pseudoTerminal }

    private let process = Process()
    private let input: FileHandle
    private let printed = Mutex((stdout: "", stderr: ""))
    private let finished = DispatchGroup()

    /// Starts `arguments[0]` (a path or a name in PATH) with the rest as arguments.
    public init(_ arguments: [String], environment: [String: String]? = nil, terminal: Terminal = .pipe) throws {
        process.executableURL = URL(fileURLWithPath: ProcessRunner.resolve(arguments[0]))
        process.arguments = Array(arguments.dropFirst())
        process.environment = ProcessRunner.childEnvironment(environment)
        switch terminal {
        case .pipe:
            let stdin = Pipe(), stdout = Pipe(), stderr = Pipe()
            (process.standardInput, process.standardOutput, process.standardError) = (stdin, stdout, stderr)
            input = stdin.fileHandleForWriting
            try process.run()
            collect(stdout.fileHandleForReading.fileDescriptor) { $0.stdout += $1 }
            collect(stderr.fileHandleForReading.fileDescriptor) { $0.stderr += $1 }
        case .pseudoTerminal:
            let (master, slave) = try Self.openTerminal()
            (process.standardInput, process.standardOutput, process.standardError) = (slave, slave, slave)
            input = master
            try process.run()
            try slave.close()  // the child's copy stays open: reading ends when the child exits
            collect(master.fileDescriptor) { $0.stdout += $1 }
        }
    }

    /// The process id.
    public var pid: Int32 { process.processIdentifier }
    /// Whether the program is still running.
    public var isRunning: Bool { process.isRunning }
    /// Everything printed on standard output so far.
    public var stdout: String { printed.withLock { $0.stdout } }
    /// Everything printed on standard error so far.
    public var stderr: String { printed.withLock { $0.stderr } }

    /// Writes a line to the program's standard input (`ending` is the key that ends it).
    public func send(_ line: String, ending: String = "\n") {
        input.write(Data((line + ending).utf8))
    }

    /// Closes the program's standard input.
    public func closeInput() {
        try? input.close()
    }

    /// Waits until `predicate` holds for (stdout, stderr), or `seconds` pass; whether it held.
    @discardableResult
    public func waitFor(seconds: Double = 30, _ predicate: (_ stdout: String, _ stderr: String) -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if printed.withLock({ predicate($0.stdout, $0.stderr) }) { return true }
            usleep(20_000)
        }
        return false
    }

    /// Waits for the program to exit (terminating it after `seconds`, killing it 5 s later)
    /// and for its output to be read to the end, and returns its status. Output still
    /// open 10 s after the exit (held by a process it left behind) is left unread.
    @discardableResult
    public func wait(seconds: Double = 30) -> Int32 {
        ProcessRunner.waitForExit(process, seconds: seconds)
        _ = finished.wait(timeout: .now() + 10)
        return process.terminationStatus
    }

    /// Sends a signal, e.g. SIGINT for Ctrl-C.
    public func signal(_ number: Int32) {
        kill(process.processIdentifier, number)
    }

    deinit {
        if process.isRunning { process.terminate() }
    }

    /// Reads `descriptor` on its own thread until end of file (or the terminal's EIO).
    private func collect(_ descriptor: Int32, into append: @escaping @Sendable (inout (stdout: String, stderr: String), String) -> Void) {
        finished.enter()
        DispatchQueue.global().async {
            var buffer = [UInt8](repeating: 0, count: 4096)
            while true {
                let count = read(descriptor, &buffer, buffer.count)
                if count < 0 && errno == EINTR { continue }
                guard count > 0 else { break }
                let text = String(decoding: buffer[0..<count], as: UTF8.self)
                self.printed.withLock { append(&$0, text) }
            }
            self.finished.leave()
        }
    }

    /// A pseudo-terminal pair, 120 columns wide.
    private static func openTerminal() throws -> (master: FileHandle, slave: FileHandle) {
        var (master, slave): (Int32, Int32) = (-1, -1)
        var size = winsize(ws_row: 40, ws_col: 120, ws_xpixel: 0, ws_ypixel: 0)
        guard openpty(&master, &slave, nil, nil, &size) == 0 else {
            throw ProcessRunner.Failure(message: "no pseudo-terminal")
        }
        return (FileHandle(fileDescriptor: master, closeOnDealloc: true),
                FileHandle(fileDescriptor: slave, closeOnDealloc: true))
    }
}
