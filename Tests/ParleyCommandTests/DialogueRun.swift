import Foundation
import Testing
import TestSupport

/// A running `parley dialog` whose standard input the test writes line by line
/// and whose standard output it reads as it comes, so a test can wait for a
/// line (`A (en-US), your turn`) before it plays into the microphone.
final class DialogueRun: Sendable {
    private let child: ChildProcess

    /// Starts the built `parley` with `arguments` against the test audio server.
    init(_ arguments: [String], environment extra: [String: String] = [:]) throws {
        child = try ChildProcess.parley(arguments, environment: extra)
    }

    /// The process id of the running `parley`.
    var processIdentifier: Int32 { child.pid }

    /// Everything printed on standard output so far.
    var stdout: String { child.stdout }

    /// Everything printed on standard error so far.
    var stderr: String { child.stderr }

    /// The lines printed so far.
    var lines: [String] { stdout.split(separator: "\n").map(String.init) }

    /// Waits until the `count`-th line matching `predicate` has been printed; throws after `timeout`
    /// seconds (a hang is a failure, not a timing measurement).
    func waitForLine(count: Int = 1, timeout: Double = 60, where predicate: (String) -> Bool) throws {
        let deadline = Date().addingTimeInterval(timeout)
        while lines.filter(predicate).count < count {
            guard Date() < deadline, child.isRunning else {
                throw ProcessRunner.Failure(message: "parley never printed the expected line; stdout:\n\(stdout)\nstderr:\n\(stderr)")
            }
            Thread.sleep(forTimeInterval: 0.02)
        }
    }

    /// Writes one line to parley's standard input.
    func send(_ line: String) {
        child.send(line)
    }

    /// Sends `signal` and waits up to `timeout` seconds for parley to exit: its status and how
    /// long it took, or nil when it still runs (it is then killed). Standard input stays open.
    func exit(on signal: Int32, timeout: Double = 30) -> (status: Int32, seconds: Double)? {
        let sent = Date()
        child.signal(signal)
        while child.isRunning {
            guard Date().timeIntervalSince(sent) < timeout else {
                child.signal(SIGKILL)
                _ = child.wait()
                return nil
            }
            Thread.sleep(forTimeInterval: 0.02)
        }
        let seconds = Date().timeIntervalSince(sent)
        return (child.wait(), seconds)
    }

    /// Closes standard input (end of input) and waits for parley to exit and its pipes
    /// to be read to their end; returns its status.
    func finish(timeout: Double = 60) throws -> Int32 {
        child.closeInput()
        let deadline = Date().addingTimeInterval(timeout)
        while child.isRunning {
            guard Date() < deadline else {
                child.signal(SIGTERM)
                throw ProcessRunner.Failure(message: "parley did not exit at the end of input; stdout:\n\(stdout)\nstderr:\n\(stderr)")
            }
            Thread.sleep(forTimeInterval: 0.05)
        }
        return child.wait()
    }
}

/// Seconds of audio in `samples` (16 kHz) spent in 10 ms frames louder than `threshold` (peak).
func audibleSeconds(_ samples: [Int16], threshold: Int16 = 300) -> Double {
    let frames = stride(from: 0, to: samples.count, by: 160).filter { start in
        samples[start..<min(start + 160, samples.count)].contains { abs(Int32($0)) > Int32(threshold) }
    }
    return Double(frames.count) / 100
}

/// `parley say --out` of `text` in `locale`, as 16 kHz samples (sox converts it, as the loopback records).
func saidSamples(_ text: String, locale: String, in directory: URL) throws -> [Int16] {
    let wav = directory.appendingPathComponent("say.wav").path, raw = directory.appendingPathComponent("say.raw").path
    let said = try ProcessRunner.parley(["say", "--locale", locale, "--out", wav, text])
    try #require(said.status == 0, "\(said.stderr)")
    let converted = try ProcessRunner.run(["sox", wav, "-r", "16000", "-c", "1", "-b", "16", "-e", "signed-integer", "-t", "raw", raw])
    try #require(converted.status == 0, "\(converted.stderr)")
    return try Fixtures.rawSamples(raw)
}

/// Expects `samples`, recorded from the speaker, to hold about as much speech as `parley say`
/// makes of `text` in `locale` (within a fifth of its audible seconds, at the `speeds` it was
/// spoken at: simultaneous mode speeds a clause up when the listener falls behind), and Whisper
/// to hear `text` in it (`HeardSpeech.expectHeard`).
func expectSpeech(_ samples: [Int16], saying text: String, locale: String, in directory: URL,
                  speeds: ClosedRange<Double> = 1...1, sourceLocation: SourceLocation = #_sourceLocation) throws {
    let said = try saidSamples(text, locale: locale, in: directory)
    let expected = audibleSeconds(said)
    let spoken = audibleSeconds(samples)
    let shortest = expected / speeds.upperBound * 0.8, longest = expected / speeds.lowerBound * 1.2
    #expect(expected > 0.5 && (shortest...longest).contains(spoken),
            "the speaker played \(spoken) s of speech; parley say makes \(expected) s of '\(text)' in \(locale), spoken at \(speeds) times its rate",
            sourceLocation: sourceLocation)
    try HeardSpeech.expectHeard(samples, saying: text, said: said, locale: locale, in: directory, sourceLocation: sourceLocation)
}
