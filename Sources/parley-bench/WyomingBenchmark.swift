import ArgumentParser
import Foundation
import Locales
import ParleyCore
import PocketSphinxRecognition
import ProcessHarness
import Recognition
import Synthesis
import WhisperRecognition
import Wyoming

/// `parley-bench wyoming`: recognition and voices through Wyoming servers on loopback, beside
/// the engines on this machine, in one run.
///
/// - Latency per utterance: each recording fed at the pace it was spoken, then silence; from the
///   end of its speech to its text, through the Whisper worker and through wyoming-faster-whisper
///   (the same model), and the word error rate of each.
/// - Queueing: N parties ending an utterance at once, through one local worker, one server and
///   two servers (on this machine the servers share its two cores).
/// - A voice's first audio: eSpeak NG in process against wyoming-piper's joe voice.
struct WyomingBenchmark: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "wyoming",
        abstract: "Recognition and voices through Wyoming servers on loopback, beside the local engines.")

    @Option(help: "Runs of each queueing measurement.")
    var trials = 3

    func run() async throws {
        let corpus = try RecognitionCorpus.load()
        let setup = try WhisperBenchSetup.discover()
        let local = WhisperRecognizer(worker: WhisperWorker(launch: try setup.installation.launch()), detector: SphinxSpeechDetector.make)
        try await local.start()
        let servers = try (0..<2).map { _ in try WyomingTestServer() }
        defer { servers.forEach { $0.stop() } }
        let addresses = try servers.map { try $0.wyomingAddress }
        let one = WyomingRecognizer(address: addresses[0], detector: SphinxSpeechDetector.make)
        let two = WyomingRecognizer(addresses: addresses, detector: SphinxSpeechDetector.make)
        _ = try await one.describe()
        _ = try await two.describe()

        var report = BenchmarkReport(area: "wyoming", title: "Wyoming servers",
                                     command: "scripts/with-test-server.sh scripts/bench.sh wyoming")
        report.add("Recognition through wyoming-faster-whisper 3.8.1 (the same whisper-base model, int8, one CPU thread per server) on 127.0.0.1, against Parley's Whisper worker; each recording fed at the pace it was spoken, then 1.5 s of silence. Latency: from the moment its speech ended, on the wall clock, to its text (the detector's endpoint, 500 ms, included).")
        report.add("")
        var rows: [[String]] = []
        var medians: [String: Double] = [:]
        for (name, recognizer) in [("Whisper worker (this machine)", local as any SpeechRecognizer), ("Wyoming server", one)] {
            var latencies: [Double] = []
            var texts: [String: String] = [:]
            for clip in corpus.clips {
                progress("wyoming", "\(name): \(clip.name)")
                let (text, latency) = try await Self.paced(clip.audio.samples, through: recognizer, locale: corpus.locale)
                texts[clip.name] = text
                latencies.append(latency)
            }
            let timings = Timings(latencies)
            medians[name] = timings.median
            rows.append([name, Timings.format(timings.median), Timings.format(timings.p90),
                         corpus.wordErrorRate(texts, normalize: true)])
        }
        report.addTable(header: ["recognizer", "latency median (ms)", "p90 (ms)", "WER"], rows: rows)
        if let server = medians["Wyoming server"], let worker = medians["Whisper worker (this machine)"] {
            report.add("The server takes \(ratio(server, worker)) the worker's time per utterance: it decodes the whole utterance after its end, where the worker has decoded most of it while it was spoken (a speculative final decode).")
            report.add("")
        }

        report.add("### Parties ending an utterance at once")
        report.add("")
        report.add("N parties each end LibriVox 0880 (2.6 s) at the same moment; the median over the \(trials) runs of each party's latency from the end of its speech to its text. On this 2-core machine two servers share the cores the one server had: a second machine, or a GPU, would decode beside the first, and the two-server column would then fall towards the one-party figure.")
        report.add("")
        guard let clip = corpus.clips.first(where: { $0.name.hasSuffix("0880.wav") }) else {
            throw BenchmarkFailure("LibriVox 0880 is not among the recordings")
        }
        var queueRows: [[String]] = []
        for parties in [1, 2, 4, 6] {
            var row = ["\(parties)"]
            for recognizer in [local as any SpeechRecognizer, one, two] {
                var latencies: [Double] = []
                for _ in 0..<trials {
                    progress("wyoming", "\(parties) parties, \(type(of: recognizer))")
                    latencies += try await Self.together(parties, clip.audio.samples, through: recognizer, locale: corpus.locale)
                }
                row.append(Timings.format(Timings(latencies).median))
            }
            queueRows.append(row)
        }
        report.addTable(header: ["parties", "one Whisper worker (ms)", "one server (ms)", "two servers (ms)"], rows: queueRows)

        report.add("### A voice's first audio")
        report.add("")
        let voice = try WyomingTestServer(voice: true)
        defer { voice.stop() }
        let voiceAddress = try voice.wyomingAddress
        let piper = WyomingSynthesizer(address: voiceAddress)
        let espeak = ESpeakSynthesizer()
        let sentences = ["Where is the train station?", "I want a coffee with milk.", "The train leaves at eight in the morning.",
                         "Could you speak more slowly, please?", "Thank you very much."]
        var voiceRows: [[String]] = []
        for (name, synthesizer, selection) in [
            ("eSpeak NG (in process)", espeak as any SpeechSynthesizer, VoiceSelection.locale(corpus.locale)),
            ("wyoming-piper, en_US-joe-medium", piper, VoiceSelection.identifier(WyomingSynthesizer.identifier(WyomingTestServer.joeVoice, at: voiceAddress))),
        ] {
            _ = try await Self.firstAudio("Hello.", synthesizer, selection)  // the voice loaded
            var times: [Double] = []
            for _ in 0..<3 {
                for sentence in sentences { times.append(try await Self.firstAudio(sentence, synthesizer, selection)) }
            }
            let timings = Timings(times)
            voiceRows.append([name, Timings.format(timings.median), Timings.format(timings.p90)])
        }
        report.addTable(header: ["voice", "first audio, median (ms)", "p90 (ms)"], rows: voiceRows)
        report.add("From `speak` to its first audio chunk, the voice loaded (a first synthesis before the timed ones), five sentences three times each. Piper synthesizes a whole sentence before it sends any of it; eSpeak NG streams as it goes.")
        try report.write()
    }

    /// The text of `samples` fed to a request at the pace they were spoken, then 1.5 s of
    /// silence, and milliseconds from the end of the speech to the final result.
    static func paced(_ samples: [Int16], through recognizer: any SpeechRecognizer,
                      locale: LocaleTag) async throws -> (String, Double) {
        let request = try await recognizer.makeRequest(locale: locale, options: RecognitionOptions(endpointMilliseconds: 500))
        let audio = samples + [Int16](repeating: 0, count: 24_000)
        let step = 1_600
        let clock = ContinuousClock()
        let start = clock.now
        // When the speaker stopped, on the wall clock: a recognizer that falls behind while they
        // speak is fed the rest at once, and is timed from here all the same.
        let speechEnd: ContinuousClock.Instant? = start + .milliseconds(samples.count / 16)
        for offset in stride(from: 0, to: audio.count, by: step) {
            try await clock.sleep(until: start + .milliseconds(offset / 16), tolerance: .milliseconds(2))
            let events = try await request.append(PCMChunk(format: .recognition, samples: Array(audio[offset..<min(offset + step, audio.count)])))
            for case let .final(result) in events { return (result.text, milliseconds(since: speechEnd ?? clock.now)) }
        }
        let result = try await request.finish()
        return (result.text, milliseconds(since: speechEnd ?? clock.now))
    }

    /// Milliseconds from `instant` to now.
    static func milliseconds(since instant: ContinuousClock.Instant) -> Double {
        let elapsed = instant.duration(to: ContinuousClock.now).components
        return Double(elapsed.seconds) * 1000 + Double(elapsed.attoseconds) / 1e15
    }

    /// The latencies of `parties` utterances of `samples` fed together, at the pace spoken.
    static func together(_ parties: Int, _ samples: [Int16], through recognizer: any SpeechRecognizer,
                         locale: LocaleTag) async throws -> [Double] {
        try await withThrowingTaskGroup(of: Double.self) { group in
            for _ in 0..<parties {
                group.addTask { try await paced(samples, through: recognizer, locale: locale).1 }
            }
            var latencies: [Double] = []
            for try await latency in group { latencies.append(latency) }
            return latencies
        }
    }

    /// Milliseconds from `speak` to the first audio of `text`.
    static func firstAudio(_ text: String, _ synthesizer: any SpeechSynthesizer, _ voice: VoiceSelection) async throws -> Double {
        let started = Date()
        var first: Double?
        for try await event in synthesizer.speak(Utterance(text: text, voice: voice)) {
            if case .audio = event, first == nil { first = Date().timeIntervalSince(started) * 1000 }
        }
        guard let first else { throw BenchmarkFailure("no audio for '\(text)'") }
        return first
    }
}

extension WyomingTestServer {
    /// A server for the bench, started from the repository's root (`scripts/bench.sh`).
    convenience init(voice: Bool = false) throws {
        try self.init(script: "scripts/wyoming-server.sh", voice: voice)
    }

    /// Its address, as Parley's Wyoming module reads it.
    var wyomingAddress: WyomingAddress {
        get throws { try WyomingAddress(address) }
    }
}
