import Foundation
import Synchronization
import TestSupport

/// A running `parley dialog` whose standard input the test writes line by line
/// and whose standard output it reads as it comes, so a test can wait for a
/// line (`A (en-US), your turn`) before it plays into the microphone.
final class DialogueRun: Sendable {
    private let process: Process
    private let input: FileHandle
    private let output = SharedData()
    private let errors = SharedData()

    /// Starts the built `parley` with `arguments` against the test audio server.
    init(_ arguments: [String], environment extra: [String: String] = [:]) throws {
        var environment = try TestAudioServer.environment()
        environment["NO_COLOR"] = "1"
        environment.merge(extra) { _, new in new }
        process = Process()
        process.executableURL = URL(fileURLWithPath: ProcessRunner.parleyBinary)
        process.arguments = arguments
        process.environment = environment
        let stdin = Pipe(), stdout = Pipe(), stderr = Pipe()
        (process.standardInput, process.standardOutput, process.standardError) = (stdin, stdout, stderr)
        input = stdin.fileHandleForWriting
        for (pipe, shared) in [(stdout, output), (stderr, errors)] {
            pipe.fileHandleForReading.readabilityHandler = { handle in
                let data = handle.availableData
                if data.isEmpty {
                    handle.readabilityHandler = nil
                    shared.close()
                } else {
                    shared.append(data)
                }
            }
        }
        try process.run()
    }

    /// The process id of the running `parley`.
    var processIdentifier: Int32 { process.processIdentifier }

    /// Everything printed on standard output so far.
    var stdout: String { output.text }

    /// Everything printed on standard error so far.
    var stderr: String { errors.text }

    /// The lines printed so far.
    var lines: [String] { stdout.split(separator: "\n").map(String.init) }

    /// Waits until the `count`-th line matching `predicate` has been printed; throws after `timeout`
    /// seconds (a hang is a failure, not a timing measurement).
    func waitForLine(count: Int = 1, timeout: Double = 60, where predicate: (String) -> Bool) throws {
        let deadline = Date().addingTimeInterval(timeout)
        while lines.filter(predicate).count < count {
            guard Date() < deadline, process.isRunning else {
                throw ProcessRunner.Failure(message: "parley never printed the expected line; stdout:\n\(stdout)\nstderr:\n\(stderr)")
            }
            Thread.sleep(forTimeInterval: 0.02)
        }
    }

    /// Writes one line to parley's standard input.
    func send(_ line: String) {
        input.write(Data((line + "\n").utf8))
    }

    /// Closes standard input (end of input) and waits for parley to exit; returns its status.
    func finish(timeout: Double = 60) throws -> Int32 {
        try input.close()
        let deadline = Date().addingTimeInterval(timeout)
        while process.isRunning {
            guard Date() < deadline else {
                process.terminate()
                throw ProcessRunner.Failure(message: "parley did not exit at the end of input; stdout:\n\(stdout)")
            }
            Thread.sleep(forTimeInterval: 0.05)
        }
        // The last bytes may still be in the pipes: read both to their end.
        while !(output.isClosed && errors.isClosed) && Date() < deadline {
            Thread.sleep(forTimeInterval: 0.02)
        }
        return process.terminationStatus
    }
}

/// Bytes appended from a pipe's reading thread and read from the test's.
private final class SharedData: Sendable {
    private let data = Mutex((bytes: Data(), closed: false))

    func append(_ more: Data) { data.withLock { $0.bytes.append(more) } }

    /// Marks the end of the pipe: everything it carried has been appended.
    func close() { data.withLock { $0.closed = true } }

    var isClosed: Bool { data.withLock { $0.closed } }

    var text: String { data.withLock { String(decoding: $0.bytes, as: UTF8.self) } }
}

/// Seconds of audio in `samples` (16 kHz) spent in 10 ms frames louder than `threshold` (peak).
func audibleSeconds(_ samples: [Int16], threshold: Int16 = 300) -> Double {
    let frames = stride(from: 0, to: samples.count, by: 160).filter { start in
        samples[start..<min(start + 160, samples.count)].contains { abs(Int32($0)) > Int32(threshold) }
    }
    return Double(frames.count) / 100
}

/// The share of `reference`'s words that `text` has in the same order (longest common subsequence).
func wordAgreement(_ text: String, _ reference: String) -> Double {
    let a = text.lowercased().split(separator: " "), b = reference.lowercased().split(separator: " ")
    guard !b.isEmpty else { return 0 }
    var row = [Int](repeating: 0, count: b.count + 1)
    for word in a {
        var previous = 0
        for (j, other) in b.enumerated() {
            let saved = row[j + 1]
            row[j + 1] = word == other ? previous + 1 : max(row[j + 1], row[j])
            previous = saved
        }
    }
    return Double(row[b.count]) / Double(b.count)
}
