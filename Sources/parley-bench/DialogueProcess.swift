import Foundation
import ProcessHarness
import Synchronization

/// A running `parley dialog` driven like a person would: lines written when the
/// benchmark decides, output read as it comes. On a pipe each line is typed input
/// or a command; on a pseudo-terminal an empty line is the end-of-turn key.
final class DialogueProcess: Sendable {
    private let child: ChildProcess
    private let cleaned = Mutex((stdout: 0, stderr: 0, text: ""))

    /// The `parley` built beside this benchmark.
    static var builtParley: String {
        Bundle.main.executableURL!.deletingLastPathComponent().appendingPathComponent("parley").path
    }

    /// Starts `parley` with `arguments`: the one built beside this benchmark, or the one at `parley`.
    init(_ arguments: [String], terminal: ChildProcess.Terminal, parley: String? = nil) throws {
        var environment = ProcessInfo.processInfo.environment
        environment["NO_COLOR"] = "1"
        environment["TERM"] = "xterm"
        let parley = parley ?? Self.builtParley
        child = try ChildProcess([parley] + arguments, environment: environment, terminal: terminal)
    }

    /// The process id, for reading its memory figures.
    var pid: Int32 { child.pid }

    /// What parley printed so far, on either stream, escape codes and carriage returns removed;
    /// only what is new since the last reading is cleaned.
    private var output: String {
        let (stdout, stderr) = (child.stdout, child.stderr)
        return cleaned.withLock { cleaned in
            cleaned.text += Self.plain(String(decoding: stdout.utf8.dropFirst(cleaned.stdout), as: UTF8.self))
            cleaned.text += Self.plain(String(decoding: stderr.utf8.dropFirst(cleaned.stderr), as: UTF8.self))
            (cleaned.stdout, cleaned.stderr) = (stdout.utf8.count, stderr.utf8.count)
            return cleaned.text
        }
    }

    private static func plain(_ text: String) -> String {
        text.replacingOccurrences(of: "\u{1B}\\[[0-9;?]*[A-Za-z]", with: "", options: .regularExpression)
            .replacingOccurrences(of: "\r", with: "")
    }

    /// How often `text` has been printed so far (escape codes removed).
    func count(_ text: String) -> Int { output.components(separatedBy: text).count - 1 }

    /// Waits until `text` has been printed more than `already` times.
    func waitFor(_ text: String, moreThan already: Int, timeout: Double = 60) throws {
        let deadline = Date().addingTimeInterval(timeout)
        while count(text) <= already {
            guard Date() < deadline, child.isRunning else {
                throw BenchmarkFailure("parley did not print '\(text)'; its output ends:\n\(output.suffix(2_000))")
            }
            Thread.sleep(forTimeInterval: 0.005)
        }
    }

    /// Writes a line (on a pseudo-terminal, the Enter key ends it).
    func send(_ line: String, terminal: ChildProcess.Terminal) {
        child.send(line, ending: terminal == .pipe ? "\n" : "\r")
    }

    /// Ends the input and waits for parley to exit.
    func finish() {
        child.closeInput()
        child.wait(seconds: 30)
    }
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

    /// The first child of `pid` whose command line holds `name` (the Whisper worker of a
    /// `parley dialog`), from every thread's `children` list in /proc.
    static func child(of pid: Int32, named name: String) -> Int32? {
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")) ?? []
        let children = tasks.flatMap { task in
            ((try? String(contentsOfFile: "/proc/\(pid)/task/\(task)/children", encoding: .utf8)) ?? "")
                .split(separator: " ").compactMap { Int32($0) }
        }
        return children.first { child in
            guard let line = try? Data(contentsOf: URL(fileURLWithPath: "/proc/\(child)/cmdline")) else { return false }
            return String(decoding: line, as: UTF8.self).contains(name)
        }
    }
}
