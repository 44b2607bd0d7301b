import ArgumentParser
import Foundation
import ParleyCore
import ProcessHarness

/// `parley-bench whisper-soak`: the resident memory of `parley listen` and its Whisper
/// worker over hundreds of utterances, each of a length the worker has not had before,
/// as in a conversation.
///
/// The recordings of pocketsphinx-testdata are cut short at different points and put one
/// after another, with silence between them, in one WAV file; `parley listen --file`
/// recognizes it utterance by utterance. The worker's and parley's memory is read from
/// /proc as the lines come. The same file is run again with oneDNN's primitive cache at
/// its own default (1024 entries), as the worker ran before it turned the cache off.
struct WhisperSoakBenchmark: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "whisper-soak",
        abstract: "Resident memory of parley and its Whisper worker over hundreds of utterances of different lengths.")

    @Option(help: "Utterances in the file.")
    var utterances = 500

    @Option(help: "Lines (utterances) in a block of memory readings.")
    var interval = 50

    @Option(name: .customLong("bound-mib"), help: "Largest growth of the worker's lowest resident memory allowed from the second block to the last.")
    var boundMiB = 16.0

    /// What one run of the file measured.
    struct SoakRun {
        /// For each block of `interval` lines (the first: lines 1 to `interval`), the lowest VmRSS of
        /// the worker read while those lines came, and the highest VmRSS of parley; KiB.
        /// The file is decoded faster than real time, so a reading most often falls inside a decode;
        /// the lowest one of a block is the worker between utterances, which a leak would raise.
        var blocks: [(worker: Int, parley: Int)] = []
        var workerPeak = 0
        var parleyPeak = 0
        var seconds = 0.0
        var lines = 0
        /// Decodes in the full 30 s window (second opinions), from parley's debug log.
        var fullWindow = 0
    }

    func validate() throws {
        guard utterances >= 1 else { throw ValidationError("--utterances must be at least 1") }
        guard interval >= 1 else { throw ValidationError("--interval must be at least 1") }
    }

    func run() async throws {
        let corpus = try RecognitionCorpus.load()
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("parley-whisper-soak-\(getpid()).wav").path
        defer { try? FileManager.default.removeItem(atPath: file) }
        let lengths = try writeUtterances(corpus.clips, to: file)
        let shipped = try soak(file, environment: [:])
        let cached = try soak(file, environment: ["ONEDNN_PRIMITIVE_CACHE_CAPACITY": "1024"])
        var report = BenchmarkReport(area: "whisper-soak", title: "Soak: the Whisper worker over utterances of different lengths",
                                     command: "scripts/with-test-server.sh scripts/bench.sh whisper-soak")
        addReport(shipped: shipped, cached: cached, lengths: lengths, to: &report)
        try report.write()
    }

    /// Writes `utterances` cuts of the clips, each followed by 1.5 s of digital silence, as one
    /// 16 kHz WAV file; returns the cuts' lengths in seconds.
    private func writeUtterances(_ clips: [RecognitionCorpus.Clip], to path: String) throws -> [Double] {
        var samples: [Int16] = [], lengths: [Double] = []
        let silence = [Int16](repeating: 0, count: 24_000)
        for index in 0..<utterances {
            let clip = clips[index % clips.count].audio.samples
            // From 45 % to all of the clip, in 97 steps taken in a scrambled order: no two cuts
            // of one clip are alike for the first 97 cuts of each (776 utterances).
            let step = (index * 37) % 97
            let count = Int(Double(clip.count) * (0.45 + 0.55 * Double(step) / 96))
            samples += clip.prefix(count) + silence
            lengths.append(Double(count) / 16_000)
        }
        try Self.wav(samples).write(to: URL(fileURLWithPath: path))
        return lengths
    }

    /// 16-bit mono PCM at 16 kHz in a RIFF WAVE container.
    static func wav(_ samples: [Int16]) -> Data {
        var data = Data()
        func append<T: FixedWidthInteger>(_ value: T) { withUnsafeBytes(of: value.littleEndian) { data.append(contentsOf: $0) } }
        let bytes = UInt32(samples.count * 2)
        data.append(contentsOf: Array("RIFF".utf8)); append(36 + bytes)
        data.append(contentsOf: Array("WAVEfmt ".utf8)); append(UInt32(16)); append(UInt16(1)); append(UInt16(1))
        append(UInt32(16_000)); append(UInt32(32_000)); append(UInt16(2)); append(UInt16(16))
        data.append(contentsOf: Array("data".utf8)); append(bytes)
        samples.withUnsafeBytes { data.append(contentsOf: $0) }  // little-endian, as every Linux host Parley runs on
        return data
    }

    /// `parley listen --file` over the file, with `environment` added (the worker inherits it).
    private func soak(_ file: String, environment: [String: String]) throws -> SoakRun {
        let parley = DialogueProcess.builtParley
        let child = try ChildProcess([parley, "listen", "--recognizer", "whisper", "--locale", "en-US", "--file", file],
                                     environment: ProcessInfo.processInfo.environment.merging(environment) { $1 }
                                        .merging(["PARLEY_LOG": "debug"]) { $1 })
        var run = SoakRun()
        let began = Date()
        var worker: Int32?
        var reported = 0
        while true {
            let running = child.isRunning
            if worker == nil { worker = MemoryStatus.child(of: child.pid, named: "whisper_worker") }
            let lines = child.stdout.split(separator: "\n").count
            if let worker, lines >= 1, let status = MemoryStatus(pid: worker), let own = MemoryStatus(pid: child.pid) {
                let block = (lines - 1) / interval
                if block == run.blocks.count { run.blocks.append((status.resident, own.resident)) }
                if block < run.blocks.count {
                    run.blocks[block] = (min(run.blocks[block].worker, status.resident), max(run.blocks[block].parley, own.resident))
                }
                (run.workerPeak, run.parleyPeak) = (status.peak, own.peak)
                if lines >= reported + interval {
                    reported = lines - lines % interval
                    progress("whisper-soak", "\(environment.isEmpty ? "as shipped" : "cache on"): \(lines) utterances, worker VmRSS \(status.resident) KiB")
                }
            }
            guard running else { break }
            guard Date().timeIntervalSince(began) < 3600 else {
                child.signal(SIGTERM)
                throw BenchmarkFailure("parley listen did not finish the file within an hour")
            }
            Thread.sleep(forTimeInterval: 0.01)
        }
        run.seconds = Date().timeIntervalSince(began)
        run.lines = child.stdout.split(separator: "\n").count
        run.fullWindow = child.stderr.split(separator: "\n").filter { $0.hasSuffix("decoded") && $0.contains("window=full") }.count
        guard child.wait() == 0 else { throw BenchmarkFailure("parley listen failed: \(child.stderr.suffix(2_000))") }
        return run
    }

    private func addReport(shipped: SoakRun, cached: SoakRun, lengths: [Double], to report: inout BenchmarkReport) {
        let sorted = lengths.sorted()
        report.add("""
            One `parley listen --recognizer whisper --file` (release build) over a WAV file of \(utterances) utterances: \
            the \(RecognitionCorpus.names.count) recordings of pocketsphinx-testdata in turn, each cut short at a \
            different point (\(String(format: "%.1f", sorted.first ?? 0))–\(String(format: "%.1f", sorted.last ?? 0)) s; \
            \(Set(lengths.map { Int($0 * 100) }).count) different lengths), each followed by 1.5 s of silence. \
            In a conversation every utterance has its own length, and so does every encoder input. \
            Resident memory (VmRSS) of the worker and of parley is read from /proc every 10 ms once the first \
            line is printed (the worker ready and one utterance decoded). The file is decoded faster than real \
            time, so most readings fall inside a decode; each block of \(interval) lines reports the worker's \
            lowest reading, the worker between two utterances, which a leak would raise. The second run is the same file with oneDNN's primitive cache at its \
            default capacity (`ONEDNN_PRIMITIVE_CACHE_CAPACITY=1024`), as the worker ran before it turned the cache off.
            """)
        report.add("")
        let blocks = (0..<max(shipped.blocks.count, cached.blocks.count)).map { block in
            "\(block * interval + 1)–\(min((block + 1) * interval, utterances))"
        }
        func floors(_ run: SoakRun) -> [String] { run.blocks.map { mib($0.worker) } + Array(repeating: "—", count: blocks.count - run.blocks.count) }
        report.addTable(header: ["lines printed"] + blocks, rows: [
            ["worker, lowest VmRSS (MiB), as shipped"] + floors(shipped),
            ["worker, lowest VmRSS (MiB), primitive cache on"] + floors(cached),
            ["parley, highest VmRSS (MiB), as shipped"] + shipped.blocks.map { mib($0.parley) },
        ])
        /// The worker's growth from block `from` to the last block.
        func growth(_ run: SoakRun, from: Int) -> Double {
            guard run.blocks.count > from, let last = run.blocks.last else { return .nan }
            return Double(last.worker - run.blocks[from].worker) / 1024
        }
        report.addTable(header: ["measure", "as shipped", "primitive cache on"], rows: [
            ["lines printed (utterances recognized)", "\(shipped.lines)", "\(cached.lines)"],
            ["worker: growth of the lowest VmRSS, first block to last",
             String(format: "%+.1f MiB", growth(shipped, from: 0)), String(format: "%+.1f MiB", growth(cached, from: 0))],
            ["worker: growth of the lowest VmRSS, second block to last",
             String(format: "%+.1f MiB", growth(shipped, from: 1)), String(format: "%+.1f MiB", growth(cached, from: 1))],
            ["utterances decoded again in the full 30 s window (second opinions)", "\(shipped.fullWindow)", "\(cached.fullWindow)"],
            ["worker: peak resident (VmHWM)", "\(mib(shipped.workerPeak)) MiB", "\(mib(cached.workerPeak)) MiB"],
            ["parley: peak resident (VmHWM)", "\(mib(shipped.parleyPeak)) MiB", "\(mib(cached.parleyPeak)) MiB"],
            ["wall time per utterance", String(format: "%.0f ms", shipped.seconds / Double(utterances) * 1000),
             String(format: "%.0f ms", cached.seconds / Double(utterances) * 1000)],
            ["bound: worker growth, second block to last, ≤ \(String(format: "%.0f", boundMiB)) MiB",
             growth(shipped, from: 1) <= boundMiB ? "held" : "EXCEEDED",
             growth(cached, from: 1) <= boundMiB ? "held" : "EXCEEDED"],
        ])
    }

    private func mib(_ kib: Int) -> String { String(format: "%.1f", Double(kib) / 1024) }
}
