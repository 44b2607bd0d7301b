import ChildProcesses
import Foundation
import ProcessHarness

/// One person interrupting one translation, in a fresh room (`BargeInBenchmark`).
struct BargeInTrial {
    var parley: String
    var talker: String
    var latency: Int
    var decibels: Double

    /// Milliseconds from the person's first sound to the speaker's silence (nil: it never fell
    /// silent), and what Parley heard the person say (nil: nothing).
    func run() throws -> (reaction: Double?, heard: String?) {
        let label = UUID().uuidString.prefix(8).lowercased()
        let microphone = try NullSink(name: "parley_bench_bimic_\(label)", format: NullSink.format())
        let speaker = try NullSink(name: "parley_bench_bispk_\(label)", format: NullSink.format())
        defer { speaker.unload(); microphone.unload() }
        let room = try RoomLoopback(from: speaker.monitor, to: microphone.name, latency: latency, decibels: decibels)
        defer { room.unload() }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("parley-bargein-\(label)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let spoken = try MonitorRecorder(speaker.monitor, into: directory.appendingPathComponent("speaker.raw").path)
        let heard = try MonitorRecorder(microphone.monitor, into: directory.appendingPathComponent("microphone.raw").path)
        let dialog = try ChildProcess([parley, "dialog", "es-ES", "en-US", "--no-history", "--no-transcript",
                                       "--source", microphone.monitor, "--sink", speaker.name])
        defer { dialog.closeInput(); _ = dialog.wait(seconds: 30) }
        guard dialog.waitFor(seconds: 90, { stdout, _ in stdout.contains("A (es-ES), your turn") }) else {
            throw BenchmarkFailure("the dialogue did not start: \(dialog.stderr.suffix(500))")
        }
        dialog.send(BargeInBenchmark.line)
        guard spoken.waitForSound(seconds: 60) else { throw BenchmarkFailure("the translation was never heard") }
        Thread.sleep(forTimeInterval: 1.5)
        let played = try ProcessRunner.run(["paplay", "--device=\(microphone.name)", talker])
        guard played.status == 0 else { throw BenchmarkFailure("paplay failed: \(played.stderr)") }
        _ = dialog.waitFor(seconds: 60) { stdout, _ in stdout.contains("B en-US: ") }
        Thread.sleep(forTimeInterval: 0.5)
        let (speakerSamples, microphoneSamples) = (spoken.stop(), heard.stop())
        let line = dialog.stdout.split(separator: "\n").first { $0.hasPrefix("B en-US: ") && $0.contains("(heard") }
        let words = line.map { String($0.dropFirst("B en-US: ".count).prefix { $0 != "(" }) }
        return (Self.reaction(speaker: speakerSamples, microphone: microphoneSamples), words)
    }

    /// From the two recordings' 10 ms envelopes: the room's lag (the best correlation while only
    /// the machine plays), the person's first sound on the microphone (the first of three frames
    /// above the echo that lag and gain predict), and the speaker's first 400 ms of silence after it.
    static func reaction(speaker: [Int16], microphone: [Int16]) -> Double? {
        let (played, heard) = (envelope(speaker), envelope(microphone))
        guard let first = played.firstIndex(where: { $0 > 0.01 }), heard.count > first + 200 else { return nil }
        // 1.5 s of the machine alone, from its first sound.
        let alone = first..<min(first + 140, heard.count)
        let lag = (0...50).max { correlation(played, heard, alone, $0) < correlation(played, heard, alone, $1) } ?? 0
        let echo = { (frame: Int) -> Double in
            (frame - lag - 1...frame - lag + 1).reduce(0) { played.indices.contains($1) ? max($0, played[$1]) : $0 }
        }
        let playedEnergy = alone.reduce(0.0) { $0 + echo($1) * echo($1) }
        let gain = playedEnergy > 0 ? (alone.reduce(0.0) { $0 + heard[$1] * echo($1) } / playedEnergy) : 0
        let above = { (frame: Int) -> Bool in heard[frame] > gain * echo(frame) * 1.5 + 0.02 }
        guard let onset = (alone.upperBound..<heard.count - 3).first(where: { above($0) && above($0 + 1) && above($0 + 2) }) else {
            return nil
        }
        var frame = max(0, onset - lag)
        while frame + 40 <= played.count {
            if let loud = played[frame..<frame + 40].lastIndex(where: { $0 > 0.003 }) { frame = loud + 1 } else {
                return Double(frame - (onset - lag)) * 10
            }
        }
        return nil
    }

    /// RMS of each 10 ms, of full scale.
    static func envelope(_ samples: [Int16]) -> [Double] {
        stride(from: 0, to: samples.count - 160, by: 160).map { start in
            (samples[start..<start + 160].reduce(0.0) { $0 + Double($1) * Double($1) } / 160).squareRoot() / 32_768
        }
    }

    private static func correlation(_ played: [Double], _ heard: [Double], _ frames: Range<Int>, _ lag: Int) -> Double {
        frames.reduce(0.0) { $0 + heard[$1] * (played.indices.contains($1 - lag) ? played[$1 - lag] : 0) }
    }
}

/// `parec` of a monitor into a raw 16 kHz mono file, readable while it records.
struct MonitorRecorder {
    private let process: SpawnedProcess
    private let path: String

    /// Starts recording (a file already at `path` is replaced) and returns once samples arrive.
    init(_ source: String, into path: String) throws {
        try? FileManager.default.removeItem(atPath: path)
        process = try ProcessRunner.start(["parec", "--device=\(source)", "--raw", "--rate=16000", "--channels=1",
                                           "--format=s16le", "--latency-msec=10", path])
        self.path = path
        let deadline = Date().addingTimeInterval(20)
        while samples().isEmpty {
            guard process.isRunning, Date() < deadline else { throw BenchmarkFailure("parec did not start on \(source)") }
            usleep(10_000)
        }
    }

    func samples() -> [Int16] {
        guard let data = FileManager.default.contents(atPath: path) else { return [] }
        return data.prefix(data.count / 2 * 2).withUnsafeBytes { Array($0.bindMemory(to: Int16.self)) }
    }

    /// Waits until a sample above 1000 has been recorded.
    func waitForSound(seconds: Double) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if samples().contains(where: { abs(Int($0)) > 1000 }) { return true }
            usleep(10_000)
        }
        return false
    }

    func stop() -> [Int16] {
        ProcessRunner.stop(process)
        return samples()
    }
}

/// Translations spoken one after another with their echo in the room, nobody speaking.
struct BargeInSoak {
    var parley: String
    var seconds: Double

    /// Lines of a few sentences each, so that most of a turn is speech.
    static let lines = [
        ("Where is the train station? I have to catch the train to the airport at six, and I do not know the way.",
         "La estación está al final de esta calle. Hay que cruzar el puente y seguir recto hasta la plaza."),
        ("I would like a cup of coffee with milk and a glass of water. My friend would like a tea without sugar.",
         "Mi hermano vive en Madrid desde hace dos años. Trabaja en un hospital cerca del parque y le gusta mucho."),
        ("The museum opens at nine in the morning and closes at six. On Sundays the entrance is free for everybody.",
         "Hace mucho calor en verano, así que salimos por la mañana temprano o por la noche, cuando hace fresco."),
        ("How much does the ticket cost for two adults and one child? We would like to sit near the window.",
         "Necesito un taxi para el aeropuerto mañana a las siete. Tengo dos maletas grandes y una mochila."),
    ]

    func run(server: String) throws -> BargeInBenchmark.Soak {
        let label = UUID().uuidString.prefix(8).lowercased()
        let microphone = try NullSink(name: "parley_bench_bsmic_\(label)", format: NullSink.format())
        let speaker = try NullSink(name: "parley_bench_bsspk_\(label)", format: NullSink.format())
        defer { speaker.unload(); microphone.unload() }
        let room = try RoomLoopback(from: speaker.monitor, to: microphone.name, latency: 40, decibels: 0)
        defer { room.unload() }
        let transcript = FileManager.default.temporaryDirectory.appendingPathComponent("parley-bargein-soak-\(label).jsonl").path
        defer { try? FileManager.default.removeItem(atPath: transcript) }
        let dialog = try ChildProcess([parley, "dialog", "en-US", "es-ES", "--no-history", "--transcript", transcript,
                                       "--source", microphone.monitor, "--sink", speaker.name])
        guard dialog.waitFor(seconds: 90, { stdout, _ in stdout.contains("A (en-US), your turn") }) else {
            throw BenchmarkFailure("the dialogue did not start: \(dialog.stderr.suffix(500))")
        }
        var (sent, spoken) = (0, 0.0)
        while spoken < seconds {
            let (english, spanish) = Self.lines[(sent / 2) % Self.lines.count]
            dialog.send(sent % 2 == 0 ? english : spanish)
            sent += 1
            let turns = sent + 1
            guard dialog.waitFor(seconds: 120, { stdout, _ in stdout.components(separatedBy: ", your turn").count - 1 >= turns }) else {
                throw BenchmarkFailure("turn \(sent) never ended: \(dialog.stdout.suffix(500))")
            }
            spoken = Self.spokenSeconds(transcript)
        }
        dialog.closeInput()
        _ = dialog.wait(seconds: 60)
        let output = dialog.stdout
        let count = { (text: String) in output.components(separatedBy: text).count - 1 }
        return BargeInBenchmark.Soak(server: server, translations: sent, spokenSeconds: Self.spokenSeconds(transcript),
                                     holds: count("speaks over the translation"),
                                     interruptions: count("interrupted the translation"), utterances: count("(heard"))
    }

    /// The sum of speak_end − speak_start over the transcript's turns.
    static func spokenSeconds(_ path: String) -> Double {
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { return 0 }
        return text.split(separator: "\n").reduce(0.0) { total, line in
            guard let start = number("speak_start", in: line), let end = number("speak_end", in: line) else { return total }
            return total + max(0, end - start)
        }
    }

    private static func number(_ key: String, in line: Substring) -> Double? {
        guard let range = line.range(of: "\"\(key)\":") else { return nil }
        return Double(line[range.upperBound...].prefix { $0.isNumber || $0 == "." })
    }
}
