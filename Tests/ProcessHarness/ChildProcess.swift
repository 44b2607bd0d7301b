import ChildProcesses
import Foundation
import Synchronization

/// A program running beside its caller: the caller writes its standard input when
/// it likes and waits for what it prints on standard output or error. No shell.
///
/// On a pseudo-terminal the program believes a person is typing: its standard
/// input, output and error are the terminal, so everything it prints is `stdout`.
///
/// The program is a `SpawnedProcess` (its own process group, default signal
/// dispositions), reaped as soon as it exits.
public final class ChildProcess: Sendable {
    /// Where the program's standard input and output go.
    public enum Terminal: Sendable { case pipe, pseudoTerminal }

    private let process: SpawnedProcess
    /// Where `send` writes: the input pipe, or the pseudo-terminal's parent end.
    private let inputEnd: Int32
    /// The pseudo-terminal's parent end, which its reader alone closes; nil on pipes.
    private let terminal: Int32?
    /// Whether `send` may still write to `inputEnd`; writing, closing and this flag share the lock.
    private let inputOpen = Mutex(true)
    private let printed = Mutex((stdout: "", stderr: ""))
    private let finished = DispatchGroup()

    /// Starts `arguments[0]` (a path or a name in PATH) with the rest as arguments.
    public init(_ arguments: [String], environment: [String: String]? = nil, terminal: Terminal = .pipe) throws {
        let command = [ProcessRunner.resolve(arguments[0])] + arguments.dropFirst()
        let environment = ProcessRunner.childEnvironment(environment)
        switch terminal {
        case .pipe:
            process = try SpawnedProcess(command, environment: environment, name: arguments[0])
            (inputEnd, self.terminal) = (process.input, nil)
            collect(process.output) { $0.stdout += $1 }
            collect(process.errors) { $0.stderr += $1 }
        case .pseudoTerminal:
            let (parent, child) = try Self.openTerminal()
            defer { close(child) }  // the program's copies stay open: reading ends when it exits
            do {
                process = try SpawnedProcess(command, environment: environment, name: arguments[0], standardInput: .descriptor(child),
                                             standardOutput: .descriptor(child), standardError: .descriptor(child))
            } catch {
                close(parent)
                throw error
            }
            (inputEnd, self.terminal) = (parent, parent)
            collectTerminal(parent)
        }
        let reaper = Thread { [process] in process.waitForExit() }
        reaper.name = "ProcessHarness.reaper.\(process.pid)"
        reaper.start()
    }

    /// The process id.
    public var pid: Int32 { process.pid }
    /// Whether the program is still running.
    public var isRunning: Bool { process.isRunning }
    /// Everything printed on standard output so far.
    public var stdout: String { printed.withLock { $0.stdout } }
    /// Everything printed on standard error so far.
    public var stderr: String { printed.withLock { $0.stderr } }

    /// Writes a line to the program's standard input (`ending` is the key that ends it);
    /// nothing once the input is closed or the program no longer reads it.
    public func send(_ line: String, ending: String = "\n") {
        let bytes = Array((line + ending).utf8)
        inputOpen.withLock { open in
            guard open else { return }
            var written = 0
            while written < bytes.count {
                let count = bytes[written...].withUnsafeBytes { write(inputEnd, $0.baseAddress, $0.count) }
                guard count > 0 || errno == EINTR else { return }
                written += max(count, 0)
            }
        }
    }

    /// Closes the program's standard input (on a pseudo-terminal, the terminal is hung up).
    public func closeInput() {
        inputOpen.withLock { open in
            guard open else { return }
            open = false
            if terminal == nil { process.closeInput() }
        }
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
    /// and for its output to be read to the end, and returns its status (the exit code, or
    /// the number of the signal that ended it). Output still open 10 s after the exit (held
    /// by a process it left behind) is left unread.
    @discardableResult
    public func wait(seconds: Double = 30) -> Int32 {
        ProcessRunner.waitForExit(process, seconds: seconds)
        _ = finished.wait(timeout: .now() + 10)
        return ProcessRunner.status(process.termination ?? .lost)
    }

    /// Sends a signal, e.g. SIGINT for Ctrl-C (nothing once the program has been reaped).
    public func signal(_ number: Int32) {
        process.send(number)
    }

    deinit {
        process.send(SIGTERM)
    }

    /// Reads `descriptor` on its own thread until end of file.
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

    /// Reads the terminal on its own thread until the program and everything it started have
    /// closed it (EIO) or `closeInput()` hangs it up; then closes it.
    private func collectTerminal(_ descriptor: Int32) {
        finished.enter()
        DispatchQueue.global().async {
            var buffer = [UInt8](repeating: 0, count: 4096)
            var ready = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            while true {
                let hangingUp = self.inputOpen.withLock { !$0 }
                // Looks for a hang-up every 50 ms; once asked for one, reads only what waits already.
                let waiting = poll(&ready, 1, hangingUp ? 0 : 50)
                if waiting == 0 && !hangingUp || waiting < 0 && errno == EINTR { continue }
                guard waiting > 0 else { break }
                let count = read(descriptor, &buffer, buffer.count)
                if count < 0 && errno == EINTR { continue }
                guard count > 0 else { break }
                let text = String(decoding: buffer[0..<count], as: UTF8.self)
                self.printed.withLock { $0.stdout += text }
            }
            self.inputOpen.withLock { open in
                open = false
                close(descriptor)
            }
            self.finished.leave()
        }
    }

    /// A pseudo-terminal pair, 120 columns wide: the parent's end and the program's.
    private static func openTerminal() throws -> (parent: Int32, child: Int32) {
        var (parent, child): (Int32, Int32) = (-1, -1)
        var size = winsize(ws_row: 40, ws_col: 120, ws_xpixel: 0, ws_ypixel: 0)
        guard openpty(&parent, &child, nil, nil, &size) == 0 else {
            throw ProcessRunner.Failure(message: "no pseudo-terminal")
        }
        return (parent, child)
    }
}
