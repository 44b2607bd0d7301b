import Audio
import ArgumentParser
import Foundation
import ProcessHarness

/// `parley-bench echo`: what the server's echo canceller takes out of a spoken translation's
/// echo, on PulseAudio and on pipewire-pulse. A room is a loopback from the speaker's monitor
/// into the microphone, 40 or 100 ms late; a Spanish translation (`parley say --out`) plays
/// through the canceller at two levels; the raw microphone (what Parley hears without the
/// canceller) and the canceller's source are recorded side by side.
struct EchoBenchmark: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "echo",
        abstract: "Echo return loss enhancement of the server's echo canceller, on PulseAudio and pipewire-pulse.")

    @Flag(name: .customLong("this-server-only"), help: "Measure on the current server only and print the rows as JSON.")
    var thisServerOnly = false

    /// One measurement: a room, a level, and what each recording held.
    struct Row: Codable {
        var server: String
        var latency: Int
        var level: String
        var echoRMS: Double
        var residualRMS: Double
        var echoWords: Int
        var residualWords: Int
        var erle: Double { 20 * log10(echoRMS / max(residualRMS, 0.5)) }
    }

    /// Speech over playback: a person's recording played into the microphone 1.5 s into the
    /// translation, read by Whisper from the raw microphone and from the canceller's source.
    struct DoubleTalk: Codable {
        var server: String
        var latency: Int
        var alone: String
        var raw: String
        var cancelled: String
    }

    /// A person speaking with nothing played, through the canceller with the server's noise
    /// suppression on (its default) or off (Parley's).
    struct SpeechAlone: Codable {
        var server: String
        var suppression: Bool
        /// The raw microphone's 100 ms blocks of speech the canceller's source has 6 dB or more
        /// below their median difference, of `blocks`; the deepest, in dB below the median.
        var lowered: Int
        var blocks: Int
        var deepest: Double
        var raw: String
        var cancelled: String
    }

    /// Everything measured on one server.
    struct Measured: Codable {
        var rows: [Row]
        var doubleTalk: [DoubleTalk]
        var speechAlone: [SpeechAlone]
    }

    /// The person who speaks over the translation, and what they said.
    static let talker = "librivox/sense_and_sensibility_01_austen_64kb-0930.wav"

    static let sentence = "La estación de tren está al final de esta calle, a la derecha, después del puente y del mercado."

    func run() async throws {
        let here = try measureHere()
        if thisServerOnly {
            print(String(decoding: try JSONEncoder().encode(here), as: UTF8.self))
            return
        }
        let pipewire = try measuredOnPipeWire("echo", as: Measured.self, timeout: 1_800)
        try report(Measured(rows: here.rows + pipewire.rows, doubleTalk: here.doubleTalk + pipewire.doubleTalk,
                            speechAlone: here.speechAlone + pipewire.speechAlone))
    }

    /// Every room and level on the server the environment names.
    private func measureHere() throws -> Measured {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("parley-echo-\(getpid())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let speech = directory.appendingPathComponent("translation.wav").path
        let parley = DialogueProcess.builtParley
        let said = try ProcessRunner.run([parley, "say", "--locale", "es-ES", "--out", speech, Self.sentence])
        guard said.status == 0 else { throw BenchmarkFailure("parley say failed: \(said.stderr)") }
        let quieter = directory.appendingPathComponent("translation-12dB.wav").path
        let lowered = try ProcessRunner.run(["sox", speech, quieter, "vol", "-12dB"])
        guard lowered.status == 0 else { throw BenchmarkFailure("sox failed: \(lowered.stderr)") }
        let server = try ServerProbe.probe().serverName
        var rows: [Row] = []
        for latency in [40, 100] {
            for (level, file) in [("as spoken", speech), ("12 dB lower", quieter)] {
                var row = try measure(file, latency: latency, in: directory)
                (row.server, row.level) = (server.contains("PipeWire") ? "pipewire-pulse" : "PulseAudio", level)
                row.echoWords = try words("\(directory.path)/raw.raw", parley)
                row.residualWords = try words("\(directory.path)/cancelled.raw", parley)
                progress("echo", "\(row.server), \(latency) ms, \(level): \(String(format: "%.1f", row.erle)) dB")
                rows.append(row)
            }
        }
        let serverLabel = server.contains("PipeWire") ? "pipewire-pulse" : "PulseAudio"
        let doubleTalk = try [40, 100].map { latency in
            try measureDoubleTalk(speech, latency: latency, server: serverLabel, parley: parley, in: directory)
        }
        let alone = try [true, false].map { suppression in
            try measureSpeechAlone(suppression: suppression, server: serverLabel, parley: parley, in: directory)
        }
        return Measured(rows: rows, doubleTalk: doubleTalk, speechAlone: alone)
    }

    /// Three LibriVox sentences joined by natural pauses (0.8 and 0.6 s) played into the microphone
    /// of a fresh 40 ms room with nothing on the speaker; the raw microphone and the canceller's
    /// source compared block by block, and Whisper's word error rate on each.
    private func measureSpeechAlone(suppression: Bool, server: String, parley: String, in directory: URL) throws -> SpeechAlone {
        let passage = LongSpeechPassages.threeSentences
        let file = try LongSpeechPassages.build(passage, pauses: [0.8, 0.6], in: directory)
        let (rawPath, cancelledPath) = ("\(directory.path)/alone-raw.raw", "\(directory.path)/alone-cancelled.raw")
        try inRoom(latency: 40, noiseSuppression: suppression) { microphone, canceller in
            let raw = try MonitorRecorder(microphone.monitor, into: rawPath)
            let cancelled = try MonitorRecorder(canceller.source, into: cancelledPath)
            let spoken = try ProcessRunner.run(["paplay", "--device=\(microphone.name)", file])
            guard spoken.status == 0 else { throw BenchmarkFailure("paplay failed: \(spoken.stderr)") }
            Thread.sleep(forTimeInterval: 0.5)
            for recorder in [raw, cancelled] { _ = recorder.stop() }
        }
        let blocks = SpeechBlocks.compare(raw: try samples(rawPath), processed: try samples(cancelledPath))
        let heard = try [rawPath, cancelledPath].map { wer(try listened($0, parley), passage.reference) }
        progress("echo", "\(server), speech alone, noise suppression \(suppression ? "on" : "off"): "
                 + "\(blocks.lowered) of \(blocks.blocks) blocks lowered, \(heard)")
        return SpeechAlone(server: server, suppression: suppression, lowered: blocks.lowered, blocks: blocks.blocks,
                           deepest: blocks.deepest, raw: heard[0], cancelled: heard[1])
    }

    /// The translation through a fresh room and canceller, and 1.5 s into it the talker's
    /// recording into the microphone; Whisper's word error rate on each recording.
    private func measureDoubleTalk(_ speech: String, latency: Int, server: String, parley: String,
                                   in directory: URL) throws -> DoubleTalk {
        guard let reference = try RecognitionCorpus.load().references[Self.talker] else {
            throw BenchmarkFailure("no transcript of \(Self.talker)")
        }
        let talker = "\(RecognitionCorpus.directory)/\(Self.talker)"
        try inRoom(latency: latency) { microphone, canceller in
            let raw = try MonitorRecorder(microphone.monitor, into: "\(directory.path)/dt-raw.raw")
            let cancelled = try MonitorRecorder(canceller.source, into: "\(directory.path)/dt-cancelled.raw")
            let translation = try ProcessRunner.start(["paplay", "--device=\(canceller.sink)", speech])
            Thread.sleep(forTimeInterval: 1.5)
            let spoken = try ProcessRunner.run(["paplay", "--device=\(microphone.name)", talker])
            guard spoken.status == 0 else { throw BenchmarkFailure("paplay failed: \(spoken.stderr)") }
            _ = ProcessRunner.waitForExit(translation, seconds: 60)
            Thread.sleep(forTimeInterval: 0.5)
            for recorder in [raw, cancelled] { _ = recorder.stop() }
        }
        let heard = try [talker, "\(directory.path)/dt-raw.raw", "\(directory.path)/dt-cancelled.raw"].map {
            wer(try listened($0, parley), reference)
        }
        progress("echo", "\(server), \(latency) ms, speech over playback: \(heard)")
        return DoubleTalk(server: server, latency: latency, alone: heard[0], raw: heard[1], cancelled: heard[2])
    }

    /// `percent (errors / words)` of `text` against `reference`, as spoken words.
    private func wer(_ text: String, _ reference: String) -> String {
        let errors = RecognitionCorpus.wordErrors(RecognitionCorpus.spokenWords(text), reference)
        let words = reference.split(separator: " ").count
        return String(format: "%.0f %% (%d / %d)", 100 * Double(errors) / Double(words), errors, words)
    }

    /// One playback of `speech` through a fresh room and canceller; the recordings stay in `directory`.
    private func measure(_ speech: String, latency: Int, in directory: URL) throws -> Row {
        try inRoom(latency: latency) { microphone, canceller in
            let raw = try MonitorRecorder(microphone.monitor, into: "\(directory.path)/raw.raw")
            let cancelled = try MonitorRecorder(canceller.source, into: "\(directory.path)/cancelled.raw")
            let played = try ProcessRunner.run(["paplay", "--device=\(canceller.sink)", speech])
            guard played.status == 0 else { throw BenchmarkFailure("paplay failed: \(played.stderr)") }
            Thread.sleep(forTimeInterval: 0.5)
            for recorder in [raw, cancelled] { _ = recorder.stop() }
        }
        // The canceller converges within its first second or two: the level is read after 2 s.
        let echo = try rms("\(directory.path)/raw.raw"), residual = try rms("\(directory.path)/cancelled.raw")
        return Row(server: "", latency: latency, level: "", echoRMS: echo, residualRMS: residual, echoWords: 0, residualWords: 0)
    }

    /// Runs `body` in a fresh room: a microphone and a speaker (null sinks), a loopback from the
    /// speaker's monitor into the microphone `latency` ms late, and Parley's canceller between
    /// them; everything is unloaded afterwards.
    private func inRoom(latency: Int, noiseSuppression: Bool = false, _ body: (NullSink, EchoCanceller) throws -> Void) throws {
        let label = UUID().uuidString.prefix(8).lowercased()
        let microphone = try NullSink(name: "parley_bench_ecmic_\(label)", format: NullSink.format())
        let speaker = try NullSink(name: "parley_bench_ecspk_\(label)", format: NullSink.format())
        defer { speaker.unload(); microphone.unload() }
        let room = try ProcessRunner.run(["pactl", "load-module", "module-loopback", "source=\(speaker.monitor)",
                                          "sink=\(microphone.name)", "latency_msec=\(latency)"])
        guard room.status == 0 else { throw BenchmarkFailure("no loopback: \(room.stderr)") }
        defer { _ = try? ProcessRunner.run(["pactl", "unload-module", room.stdout.trimmingCharacters(in: .whitespacesAndNewlines)]) }
        let canceller = try EchoCanceller.load(server: nil, source: microphone.monitor, sink: speaker.name,
                                               noiseSuppression: noiseSuppression)
        defer { canceller.unload(server: nil) }
        try body(microphone, canceller)
    }

    private func samples(_ path: String) throws -> [Int16] {
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        return data.withUnsafeBytes { Array($0.bindMemory(to: Int16.self)) }
    }

    private func rms(_ path: String) throws -> Double {
        let samples = try samples(path).dropFirst(32_000)
        guard !samples.isEmpty else { return 0 }
        return (samples.reduce(0.0) { $0 + Double($1) * Double($1) } / Double(samples.count)).squareRoot()
    }

    /// How many words `parley listen --recognizer whisper --locale en-US` reads in the recording at `path`.
    private func words(_ path: String, _ parley: String) throws -> Int {
        try listened(path, parley).split(whereSeparator: { $0.isWhitespace }).count
    }

    /// What `parley listen --recognizer whisper --locale en-US` reads in the recording at `path`, one line.
    private func listened(_ path: String, _ parley: String) throws -> String {
        let heard = try ProcessRunner.run([parley, "listen", "--recognizer", "whisper", "--locale", "en-US", "--file", path],
                                          timeout: 300)
        return heard.stdout.split(separator: "\n").joined(separator: " ")
    }

    private func report(_ measured: Measured) throws {
        let rows = measured.rows
        var report = BenchmarkReport(area: "echo", title: "Echo cancellation",
                                     command: "scripts/with-test-server.sh scripts/bench.sh echo")
        report.add("A room made of `module-loopback` from the speaker's monitor into the microphone (a null sink), "
            + "40 or 100 ms late. Parley's echo canceller (`EchoCanceller`: module-echo-cancel, WebRTC) sits between them; "
            + "a Spanish translation (`parley say --locale es-ES`, \(Self.sentence.split(separator: " ").count) words) plays "
            + "into it with paplay as `parley say` makes it and 12 dB lower (sox). The raw microphone is what Parley would hear without the "
            + "canceller; the canceller's source is what it hears with it. Echo return loss enhancement (ERLE) is the RMS "
            + "ratio after the first 2 s (convergence). Words: what `parley listen --recognizer whisper --locale en-US` "
            + "reads in each recording — residual echo that turns into words is what a second guard must stop.")
        report.add("")
        report.addTable(header: ["server", "room delay", "level", "echo RMS (raw mic)", "after the canceller", "ERLE",
                                 "words read in the raw echo", "in the residual"], rows: rows.map { row in
            [row.server, "\(row.latency) ms", row.level, String(format: "%.1f", row.echoRMS), String(format: "%.1f", row.residualRMS),
             String(format: "%.1f dB", row.erle), "\(row.echoWords)", "\(row.residualWords)"]
        })
        report.add("Speech over playback: the LibriVox sentence 0930 of pocketsphinx-testdata (a person) played "
            + "into the microphone 1.5 s into the same translation, the room and canceller as above (as spoken); Whisper "
            + "(en-US) on the recording alone, on the raw microphone and on the canceller's source. The echo's own words "
            + "count as insertions: this is what the listening side would hear.")
        report.add("")
        report.addTable(header: ["server", "room delay", "WER: the recording alone", "over playback, raw microphone",
                                 "over playback, after the canceller"], rows: measured.doubleTalk.map {
            [$0.server, "\($0.latency) ms", $0.alone, $0.raw, $0.cancelled]
        })
        report.add("A person with nothing played: LibriVox sentences 0870, 0880 and 0890 joined by pauses of 0.8 and 0.6 s "
            + "played into the microphone of a 40 ms room as above, with the canceller's noise suppression on (the servers' "
            + "default) and off (Parley's). Lowered: the raw microphone's 100 ms blocks of speech (within 20 dB of the "
            + "loudest) that the canceller's source has 6 dB or more below the median difference between the two; "
            + "Whisper (en-US) on each recording.")
        report.add("")
        report.addTable(header: ["server", "noise suppression", "speech blocks lowered 6 dB or more", "deepest",
                                 "WER: raw microphone", "after the canceller"], rows: measured.speechAlone.map {
            [$0.server, $0.suppression ? "on" : "off (Parley's)", "\($0.lowered) / \($0.blocks)",
             String(format: "%.1f dB", $0.deepest), $0.raw, $0.cancelled]
        })
        try report.write()
    }
}
