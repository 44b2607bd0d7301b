import ArgumentParser
import Audio
import ChildProcesses
import Foundation
import Logging
import ParleyCore
import ProcessHarness
import Synchronization

/// `parley-bench audio`: activation latency of the persistent session against opening
/// streams per turn, and playback → capture loopback latency, against `parec`/`paplay`.
///
/// Runs against the private server (`PULSE_SERVER`) and its `parley_mic` null sink:
/// what is played into `parley_mic` is heard on `parley_mic.monitor`.
struct AudioBenchmark: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "audio",
        abstract: "Activation and loopback latency of the audio session.")

    @Option(help: "Trials per measurement.")
    var trials = 20

    static let sink = "parley_mic"
    static let source = "parley_mic.monitor"
    static let logger: Logger = {
        var logger = Logger(label: "parley.bench.audio")
        logger.logLevel = .warning
        return logger
    }()

    func run() async throws {
        guard ProcessInfo.processInfo.environment["PULSE_SERVER"] != nil else {
            throw ValidationError("run it with scripts/with-test-server.sh: it needs the private PulseAudio server")
        }
        let persistent = try await persistentActivation(source: Self.source)
        let reopened = try await perTurnActivation(source: Self.source)
        let parec = try await parecActivation(latencyMilliseconds: 10)
        let parecDefault = try await parecActivation(latencyMilliseconds: nil)
        let defaultSink = try NullSink(name: "parley_bench_default")
        defer { defaultSink.unload() }
        let persistentDefault = try await persistentActivation(source: defaultSink.monitor)
        let reopenedDefault = try await perTurnActivation(source: defaultSink.monitor)
        let loopback = try await sessionLoopback()
        let naiveLoopback = try await commandLineLoopback()
        var report = activationReport(rows: [
            ("persistent session (consumer)", persistent.consumer),
            ("persistent session (measured in the read callback)", persistent.session),
            ("new session per turn", reopened),
            ("`parec --latency-msec=10` spawned per turn", parec),
            ("`parec` (default buffering) spawned per turn", parecDefault),
        ], defaultSinkRows: [
            ("persistent session (consumer)", persistentDefault.consumer),
            ("new session per turn", reopenedDefault),
        ])
        addLoopback(to: &report, loopback: loopback, naive: naiveLoopback)
        try report.write()
    }

    // MARK: Activation

    /// One open session; each trial starts listening and waits for the first chunk.
    private func persistentActivation(source: String) async throws -> (consumer: Timings, session: Timings) {
        let session = AudioSession(options: AudioSessionOptions(source: source, sink: Self.sink), logger: Self.logger)
        try await session.open()
        var chunks = session.capturedChunks.makeAsyncIterator()
        try await session.startListening()  // the stream's own start-up is not a turn
        _ = await chunks.next()
        await session.stopListening()
        var consumer: [Double] = [], measured: [Double] = []
        for trial in 0..<trials {
            try await Task.sleep(for: .milliseconds(30 + trial % 7))  // turns start at random phases of the fragment clock
            consumer.append(try await measureMilliseconds {
                try await session.startListening()
                _ = await chunks.next()
            })
            measured.append(session.metrics.activationLatency.map(Self.milliseconds) ?? .nan)
            await session.stopListening()
        }
        await session.close()
        return (Timings(consumer), Timings(measured))
    }

    /// The naive in-process way: a new session (context and streams) per turn.
    private func perTurnActivation(source: String) async throws -> Timings {
        var samples: [Double] = []
        for _ in 0..<trials {
            let session = AudioSession(options: AudioSessionOptions(source: source, sink: Self.sink),
                                       logger: Self.logger)
            var chunks = session.capturedChunks.makeAsyncIterator()
            samples.append(try await measureMilliseconds {
                try await session.open()
                try await session.startListening()
                _ = await chunks.next()
            })
            await session.close()
        }
        return Timings(samples)
    }

    /// The command-line way: `parec` spawned per turn, until its first 10 ms of audio;
    /// `latencyMilliseconds` nil is parec's default buffering.
    private func parecActivation(latencyMilliseconds: Int?) async throws -> Timings {
        var samples: [Double] = []
        for _ in 0..<trials {
            samples.append(try await offPool {
                var recorder: Recorder?
                defer { recorder?.stop() }
                return try measureMilliseconds {
                    recorder = try Recorder(source: Self.source, latencyMilliseconds: latencyMilliseconds)
                    _ = try recorder?.readBlock()
                }
            })
        }
        return Timings(samples)
    }

    // MARK: Loopback

    /// A 50 ms tone burst enqueued on the session, until it is heard in the session's own capture.
    private func sessionLoopback() async throws -> Timings {
        let options = AudioSessionOptions(source: Self.source, sink: Self.sink, gatesCaptureDuringPlayback: false)
        let session = AudioSession(options: options, logger: Self.logger)
        try await session.open()
        var chunks = session.capturedChunks.makeAsyncIterator()
        var samples: [Double] = []
        for _ in 0..<trials {
            await session.stopListening()  // drops what is left of the last burst
            try await Task.sleep(for: .milliseconds(150))
            try await session.startListening()
            _ = await chunks.next()
            samples.append(try await measureMilliseconds {
                try await session.enqueue(Self.burst())
                while let chunk = await chunks.next(), chunk.level.peak < 0.1 {}
            })
            try await session.drain()
        }
        await session.close()
        return Timings(samples)
    }

    /// The command-line way: per trial a `parec` is started and warmed up, then `paplay` plays
    /// the same burst; timed from spawning `paplay` to the first loud block `parec` delivers.
    private func commandLineLoopback() async throws -> Timings {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("parley-burst.raw")
        try Self.burst().samples.withUnsafeBytes { try Data($0).write(to: file) }
        defer { try? FileManager.default.removeItem(at: file) }
        var samples: [Double] = []
        for _ in 0..<trials {
            samples.append(try await offPool {
                let recorder = try Recorder(source: Self.source)
                defer { recorder.stop() }
                _ = try recorder.readBlock()
                return try measureMilliseconds {
                    let player = try ProcessRunner.start(["paplay", "--device=\(Self.sink)", "--raw", "--rate=22050",
                                                 "--channels=1", "--format=s16le", file.path])
                    defer { player.waitForExit() }
                    while try recorder.readBlock().level.peak < 0.1 {}
                }
            })
        }
        return Timings(samples)
    }

    /// 50 ms of a loud 1 kHz tone in the synthesis format.
    static func burst() -> PCMChunk {
        let format = AudioFormat.synthesis
        let samples = (0..<format.sampleCount(forSeconds: 0.05)).map {
            Int16(16_000 * sin(2 * .pi * 1_000 * Double($0) / Double(format.sampleRate)))
        }
        return PCMChunk(format: format, samples: samples)
    }

    // MARK: Report

    private func activationReport(rows: [(String, Timings)], defaultSinkRows: [(String, Timings)]) -> BenchmarkReport {
        var report = BenchmarkReport(area: "audio", title: "Audio session (PulseAudio)",
                                     command: "scripts/with-test-server.sh scripts/bench.sh audio")
        report.add("Activation latency: from the request to listen to the first captured chunk in the "
                   + "consumer's hands, \(trials) turns each. The persistent session keeps its streams open and "
                   + "only opens a gate; the per-turn rows open a new connection and streams (or spawn `parec`) for "
                   + "every turn. The first chunk is 2 ms of audio for the session (its capture fragment), 10 ms "
                   + "for `parec`. On the test server's `\(Self.source)`, a null sink with rewinds off:")
        report.add("")
        let base = rows[0].1.median
        report.addTable(header: ["activation", "median ms", "p90 ms", "ratio to persistent"],
                        rows: rows.map { row($0.0, $0.1, base) })
        report.add("On a null sink loaded by the benchmark with default settings (rewinds on):")
        report.add("")
        let defaultBase = defaultSinkRows[0].1.median
        report.addTable(header: ["activation", "median ms", "p90 ms", "ratio to persistent"],
                        rows: defaultSinkRows.map { row($0.0, $0.1, defaultBase) })
        report.add("The persistent figure is the wait for the next 2 ms capture fragment of a stream that is "
                   + "already running. A fresh stream first has to get the source to deliver at its latency: on "
                   + "a sink without rewinds that waits for the block being rendered; the command-line tools also "
                   + "pay for process start-up and, without `--latency-msec`, for default buffering.")
        return report
    }

    private func addLoopback(to report: inout BenchmarkReport, loopback: Timings, naive: Timings) {
        report.add("Loopback latency: a 50 ms 1 kHz burst written to the playback stream (22.05 kHz, 40 ms target, "
                   + "10 ms prebuffer) into `\(Self.sink)`, until the first fragment louder than 0.1 of full scale "
                   + "arrives on the session's own record stream from `\(Self.source)` (echo gate off). The naive "
                   + "row spawns `paplay` with the same burst per trial and reads a `parec` started before it.")
        report.add("")
        report.addTable(header: ["loopback", "median ms", "p90 ms", "ratio to session"], rows: [
            row("session: enqueue → heard", loopback, loopback.median),
            row("`paplay` → running `parec`", naive, loopback.median),
        ])
    }

    private func row(_ name: String, _ timings: Timings, _ base: Double) -> [String] {
        [name, Timings.format(timings.median), Timings.format(timings.p90), ratio(timings.median, base)]
    }

    static func milliseconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) * 1000 + Double(duration.components.attoseconds) / 1e15
    }
}

/// Runs blocking work (child processes, pipe reads) off Swift's cooperative pool.
private func offPool<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        DispatchQueue.global().async { continuation.resume(with: Result { try body() }) }
    }
}

/// A running `parec` on a source, read in 10 ms blocks of 16 kHz mono samples.
private final class Recorder {
    private let process: SpawnedProcess

    /// Starts `parec` on `source`; `latencyMilliseconds` nil keeps parec's default buffering.
    init(source: String, latencyMilliseconds: Int? = 10) throws {
        process = try SpawnedProcess(["/usr/bin/parec", "--device=\(source)", "--raw", "--rate=16000", "--channels=1", "--format=s16le"]
                                         + (latencyMilliseconds.map { ["--latency-msec=\($0)"] } ?? []),
                                     name: "parec", standardInput: .discarded, standardError: .discarded)
    }

    /// The next 10 ms of audio (160 samples), waiting up to 5 s for it.
    func readBlock() throws -> PCMChunk {
        var samples = [Int16](repeating: 0, count: 160)
        var filled = 0
        while filled < 320 {
            guard isReadable(waitingMilliseconds: 5_000) else { throw ValidationError("parec delivered no audio for 5 s") }
            let count = samples.withUnsafeMutableBytes { Foundation.read(process.output, $0.baseAddress! + filled, 320 - filled) }
            guard count > 0 else { throw ValidationError("parec stopped delivering audio") }
            filled += count
        }
        return PCMChunk(format: .recognition, samples: samples)
    }

    private func isReadable(waitingMilliseconds: Int32) -> Bool {
        var descriptor = pollfd(fd: process.output, events: Int16(POLLIN), revents: 0)
        return poll(&descriptor, 1, waitingMilliseconds) > 0
    }

    /// Kills parec at once: its raw samples cannot be left half-written.
    func stop() {
        process.tearDown(.kill)
    }
}
