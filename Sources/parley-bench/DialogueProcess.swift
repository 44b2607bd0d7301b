import Foundation
import Synchronization

/// A running `parley dialog` driven like a person would: lines written when the
/// benchmark decides, output read as it comes. On a pipe each line is typed input
/// or a command; on a pseudo-terminal an empty line is the end-of-turn key.
final class DialogueProcess: Sendable {
    /// Where parley's standard input and output go.
    enum Terminal { case pipe, pseudoTerminal }

    private let process: Process
    private let input: FileHandle
    private let output = SharedText()

    /// Starts the `parley` built beside this benchmark with `arguments`.
    init(_ arguments: [String], terminal: Terminal) throws {
        process = Process()
        process.executableURL = Bundle.main.executableURL!.deletingLastPathComponent().appendingPathComponent("parley")
        process.arguments = arguments
        var environment = ProcessInfo.processInfo.environment
        environment["NO_COLOR"] = "1"
        environment["TERM"] = "xterm"
        process.environment = environment
        let reading: FileHandle
        switch terminal {
        case .pipe:
            let stdin = Pipe(), stdout = Pipe()
            (process.standardInput, process.standardOutput) = (stdin, stdout)
            (input, reading) = (stdin.fileHandleForWriting, stdout.fileHandleForReading)
        case .pseudoTerminal:
            let (master, slave) = try Self.openTerminal()
            (process.standardInput, process.standardOutput) = (slave, slave)
            (input, reading) = (master, master)
        }
        process.standardError = process.standardOutput
        reading.readabilityHandler = { [output] handle in output.append(handle.availableData) }
        try process.run()
    }

    /// The process id, for reading its memory figures.
    var pid: Int32 { process.processIdentifier }

    /// How often `text` has been printed so far (escape codes removed).
    func count(_ text: String) -> Int { output.text.components(separatedBy: text).count - 1 }

    /// Waits until `text` has been printed more than `already` times.
    func waitFor(_ text: String, moreThan already: Int, timeout: Double = 60) throws {
        let deadline = Date().addingTimeInterval(timeout)
        while count(text) <= already {
            guard Date() < deadline, process.isRunning else {
                throw BenchmarkFailure("parley did not print '\(text)'; its output ends:\n\(output.text.suffix(2_000))")
            }
            Thread.sleep(forTimeInterval: 0.005)
        }
    }

    /// Writes a line (on a pseudo-terminal, the Enter key ends it).
    func send(_ line: String, terminal: Terminal) {
        input.write(Data((line + (terminal == .pipe ? "\n" : "\r")).utf8))
    }

    /// Ends the input and waits for parley to exit.
    func finish() {
        try? input.close()
        let deadline = Date().addingTimeInterval(30)
        while process.isRunning, Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
        if process.isRunning { process.terminate() }
    }

    /// A pseudo-terminal pair, 120 columns wide.
    private static func openTerminal() throws -> (FileHandle, FileHandle) {
        var (master, slave): (Int32, Int32) = (-1, -1)
        var size = winsize(ws_row: 40, ws_col: 120, ws_xpixel: 0, ws_ypixel: 0)
        guard openpty(&master, &slave, nil, nil, &size) == 0 else { throw BenchmarkFailure("no pseudo-terminal") }
        return (FileHandle(fileDescriptor: master, closeOnDealloc: true),
                FileHandle(fileDescriptor: slave, closeOnDealloc: true))
    }
}

/// Output appended from a reading thread, escape codes and carriage returns removed.
private final class SharedText: Sendable {
    private let buffer = Mutex("")

    func append(_ data: Data) {
        let plain = String(decoding: data, as: UTF8.self)
            .replacingOccurrences(of: "\u{1B}\\[[0-9;?]*[A-Za-z]", with: "", options: .regularExpression)
            .replacingOccurrences(of: "\r", with: "")
        buffer.withLock { $0 += plain }
    }

    var text: String { buffer.withLock { $0 } }
}

/// A benchmark step that could not be carried out.
struct BenchmarkFailure: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

/// Resident memory figures of a running process, in KiB, from /proc/PID/status.
struct MemoryStatus {
    /// Resident now (VmRSS).
    var resident: Int
    /// Peak resident (VmHWM).
    var peak: Int

    /// Reads them, or nil when the process is gone.
    init?(pid: Int32) {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else { return nil }
        func field(_ name: String) -> Int? {
            status.split(separator: "\n").first { $0.hasPrefix(name + ":") }
                .flatMap { Int($0.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "") }
        }
        guard let resident = field("VmRSS"), let peak = field("VmHWM") else { return nil }
        (self.resident, self.peak) = (resident, peak)
    }
}
