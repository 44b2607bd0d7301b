import ArgumentParser
import Foundation
import Locales
import ParleyCore
import PocketSphinxRecognition
import Recognition
import WhisperRecognition

/// `parley-bench whisper`: Parley's Whisper path against stock faster-whisper
/// `transcribe` on the same model, and PocketSphinx, on the human recordings,
/// clean and with pink noise: word error rate, endpoint → final latency,
/// real-time factor, the worker's memory, and the two voice activity detectors.
struct WhisperBenchmark: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "whisper",
        abstract: "Whisper recognition: Parley's path vs stock faster-whisper and PocketSphinx, clean and noisy.")

    @Option(help: "Passes over the set, of Parley's path and of stock transcribe (each loaded once for all).")
    var repetitions = 2

    @Option(help: ArgumentHelp("Signal-to-noise ratio of the noisy copies, in dB.", valueName: "dB"))
    var snr = 14.0

    @Option(name: .customLong("speculative-ms"), help: ArgumentHelp("Silence before the speculative decode starts.", valueName: "ms"))
    var speculativeMilliseconds = WhisperRecognizer.Tuning().speculativeMilliseconds

    @Option(name: .customLong("final-pad"), help: ArgumentHelp("Seconds of silence after a final decode's audio.", valueName: "s"))
    var finalPad = WhisperRecognizer.Tuning().finalPad ?? WhisperRecognizer.Tuning.defaultFinalPad

    @Flag(name: .customLong("pad-audio"), help: "Pad a final decode's audio with silence instead of its features with zero frames.")
    var padAudio = false

    @Flag(help: "Only the clean recordings (a quicker run).")
    var cleanOnly = false

    func run() async throws {
        let corpus = try RecognitionCorpus.load()
        let clips = corpus.clips.filter { corpus.references[$0.name] != nil }
        let sets = [("clean", clips), ("noisy", clips.map { noisy($0, snr: snr) })].prefix(cleanOnly ? 1 : 2)
        let setup = try WhisperBenchSetup.discover()
        var report = BenchmarkReport(area: "whisper", title: "Speech recognition (Whisper)",
                                     command: "scripts/with-test-server.sh scripts/bench.sh whisper")
        report.add("The \(clips.count) recordings of pocketsphinx-testdata with a transcript "
            + "(\(corpus.referenceWordCount) words, \(String(format: "%.1f", clips.map(\.seconds).reduce(0, +))) s), "
            + "clean and with pink noise at \(Int(snr)) dB SNR; model `\(setup.installation.models[0].name)` "
            + "(int8, 2 threads). Words are compared in lower case, without punctuation, numbers spelled "
            + "(\"10\" → ten, \"Mr.\" → mister), for every recognizer alike.")
        report.add("")
        var rows: [[String]] = [], latencyRows: [[String]] = [], vadRows: [[String]] = []
        var memory = ""
        var heardRows: [[String]] = []
        var secondOpinionNotes: [String] = []
        for (label, set) in sets {
            let stockPasses = try setup.stock(set, passes: repetitions)
            let stock = stockPasses.filter { $0.pass == 0 }
            let stockOneBlas = try setup.stock(set, passes: repetitions, environment: ["OPENBLAS_NUM_THREADS": "1"])
            let textOnly = try await parleyPass(set, setup: setup, speculative: false, full: false)
            let parley = try await parleyPass(set, setup: setup, speculative: false, full: true)
            let single = try await parleyPass(set, setup: setup, speculative: false, full: true, secondOpinion: false)
            let speculative = try await parleyPass(set, setup: setup, speculative: true, full: true)
            let sphinx = try await pocketSphinxPass(set, locale: corpus.locale)
            memory = speculative.memory
            let stockTimes = Timings(stockPasses.map { $0.seconds * 1000 })
            let stockOneBlasTimes = Timings(stockOneBlas.map { $0.seconds * 1000 })
            rows += [
                ["\(label): stock `transcribe` (30 s window)", corpus.wordErrorRate(stock.byName(set), normalize: true),
                 Timings.format(stockTimes.median), rtf(stockTimes.samples, set, repetitions: repetitions), "1.00×"],
                ["\(label): stock `transcribe`, numpy's BLAS on one thread",
                 corpus.wordErrorRate(stockOneBlas.filter { $0.pass == 0 }.byName(set), normalize: true),
                 Timings.format(stockOneBlasTimes.median), rtf(stockOneBlasTimes.samples, set, repetitions: repetitions),
                 ratio(stockTimes.median, stockOneBlasTimes.median, places: 2)],
                ["\(label): Parley's Whisper path, text only as stock (beam 1, no word times)",
                 corpus.wordErrorRate(textOnly.transcripts, normalize: true),
                 Timings.format(textOnly.decode.median), rtf(textOnly.decode.samples, set, repetitions: repetitions),
                 ratio(stockTimes.median, textOnly.decode.median, places: 2) + " faster"],
                ["\(label): Parley's Whisper path, full result (word times, 1 alternative: beam 2)",
                 corpus.wordErrorRate(parley.transcripts, normalize: true),
                 Timings.format(parley.decode.median), rtf(parley.decode.samples, set, repetitions: repetitions),
                 ratio(stockTimes.median, parley.decode.median, places: 2) + " faster"],
                ["\(label): the same without the second opinion (short window only)",
                 corpus.wordErrorRate(single.transcripts, normalize: true),
                 Timings.format(single.decode.median), rtf(single.decode.samples, set, repetitions: repetitions),
                 ratio(stockTimes.median, single.decode.median, places: 2) + " faster"],
                ["\(label): PocketSphinx (Parley)", corpus.wordErrorRate(sphinx.transcripts, normalize: true),
                 Timings.format(sphinx.decode.median), rtf(sphinx.decode.samples, set), "—"],
            ]
            latencyRows += [
                ["\(label): decode after the endpoint", Timings.format(parley.endpoint.median), Timings.format(parley.endpoint.p90)],
                ["\(label): speculative decode from the first 200 ms of silence", Timings.format(speculative.endpoint.median),
                 Timings.format(speculative.endpoint.p90)],
            ]
            vadRows.append(contentsOf: vadComparison(label, set, stock: stock, parley: parley))
            secondOpinionNotes.append("\(label): \(textOnly.secondOpinions) of \(set.count * repetitions) decodes (text only), "
                + "\(parley.secondOpinions) of \(set.count * repetitions) (full result, where the beam's alternative "
                + "was taken instead in \(parley.alternativesChosen))")
            let stockTexts = stock.byName(set)
            heardRows += set.map { clip in
                [label, (clip.name as NSString).lastPathComponent, stockTexts[clip.name] ?? "", parley.transcripts[clip.name] ?? "",
                 sphinx.transcripts[clip.name] ?? ""]
            }
        }
        report.add("### Accuracy and speed")
        report.add("")
        report.addTable(header: ["recognizer", "WER (errors / words)", "per utterance, median ms", "real-time factor", "vs stock"],
                        rows: rows)
        report.add("Per utterance: stock, the `transcribe` call; Parley, every `append` of the clip's audio "
            + "(voice activity detection, the worker round trip, the decode), the real-time waits excluded. "
            + "Each runs \(repetitions) passes over the set with its model loaded once, so a median is of "
            + "\(clips.count * repetitions) decodes; WER and the texts are the first pass's.")
        report.add("")
        report.add("Targets: Parley's path ≥ 3× faster than stock `transcribe`, WER within 1 point of it.")
        report.add("")
        report.add("Parley computes the features itself (in Swift, the same numbers as faster-whisper's extractor) "
            + "and its worker has no numpy. Stock computes them with numpy, whose OpenBLAS threads spin after the "
            + "extractor's matrix products beside CTranslate2's encoder on the two cores. The second stock row runs "
            + "stock with one BLAS thread (`OPENBLAS_NUM_THREADS=1`), so that a ratio is not that setting's alone; "
            + "the ratios are to stock as a person runs it.")
        report.add("")
        report.add("Parley encodes the utterance and \(String(format: "%g", finalPad)) s of "
            + (padAudio ? "silence" : "zero frames (stock's padding)") + ", not the 30 s window. "
            + "A final result with a word the language's word list does not hold (the CMU dictionary for English) takes "
            + "the beam's alternative when the list holds all of its words (the full result asks for one; the worker "
            + "aligns its words from the encoder output it kept, about 35 ms); otherwise it is decoded again in the full "
            + "window, as stock does, and the reading with fewer unknown words kept (the second opinion). "
            + "Decoded again: " + secondOpinionNotes.joined(separator: "; ") + ".")
        report.add("")
        report.add("### Endpoint → final result (target ≤ 400 ms median for utterances up to 8 s)")
        report.add("")
        report.add("Each clip is fed in 10 ms chunks as capture delivers them, its last 1.5 s and one second of its "
            + "background after it (silence, or the same noise) at real-time pace; the figure is the time from the end of "
            + "the 500 ms endpoint window to the final result with word times, confidence and alternatives. "
            + "Speculative: the decode starts when the detector first hears silence (200 ms), so most of it is "
            + "done when the endpoint confirms; without it the whole decode follows the endpoint.")
        report.add("")
        report.addTable(header: ["Parley's Whisper path", "median ms", "p90 ms"], rows: latencyRows)
        report.add("### Voice activity detection: utterances found per clip (each clip is one utterance)")
        report.add("")
        report.addTable(header: ["set", "detector", "clips found as one utterance", "utterances in all"], rows: vadRows)
        report.add("### What each heard")
        report.add("")
        report.addTable(header: ["set", "clip", "stock transcribe", "Parley's Whisper path", "PocketSphinx"], rows: heardRows)
        report.add("### Memory")
        report.add("")
        report.add(memory)
        try report.write()
    }

    /// `decode time ÷ audio time` over the whole set, per pass.
    private func rtf(_ milliseconds: [Double], _ set: [RecognitionCorpus.Clip], repetitions: Int = 1) -> String {
        let audio = set.map(\.seconds).reduce(0, +) * Double(repetitions)
        return String(format: "%.3f", milliseconds.reduce(0, +) / 1000 / audio)
    }

    // MARK: Parley's path

    struct Pass {
        var transcripts: [String: String] = [:]
        var secondOpinions = 0
        var alternativesChosen = 0
        var decode: Timings
        var endpoint: Timings
        var utterances: [String: Int] = [:]
        var memory = ""
        var heardRows: [[String]] = []
    }

    /// Every clip through the Whisper recognizer as live audio: the words, the whole time of each
    /// clip's recognition, the endpoint → final latency, and how many utterances the detector found.
    private func parleyPass(_ set: [RecognitionCorpus.Clip], setup: WhisperBenchSetup, speculative: Bool,
                            full: Bool, secondOpinion: Bool = true) async throws -> Pass {
        var tuning = WhisperRecognizer.Tuning()
        tuning.secondOpinion = secondOpinion
        tuning.finalPad = finalPad
        tuning.padFeatures = !padAudio
        if !full { (tuning.maximumAlternatives, tuning.wordTimes) = (0, false) }
        tuning.partialResults = false
        tuning.speculative = speculative
        tuning.speculativeMilliseconds = speculativeMilliseconds
        let whisper = WhisperRecognizer(worker: WhisperWorker(launch: try setup.installation.launch()),
                                        detector: SphinxSpeechDetector.make, tuning: tuning)
        let clock = ContinuousClock(), started = clock.now
        try await whisper.start()
        let startup = AudioBenchmark.milliseconds(clock.now - started)
        var atStart: MemoryStatus?
        if let pid = await whisper.worker.processIdentifier() { atStart = MemoryStatus(pid: pid) }
        var pass = Pass(decode: Timings([0]), endpoint: Timings([0]))
        var decode: [Double] = [], endpoint: [Double] = []
        for repetition in 0..<repetitions {
            for clip in set {
                let result = try await live(clip, whisper)
                if repetition == 0 {
                    pass.transcripts[clip.name] = result.texts.joined(separator: " ")
                    pass.utterances[clip.name] = result.texts.count
                }
                decode.append(result.decodeMilliseconds)
                endpoint += result.endpoints
            }
        }
        pass.decode = Timings(decode)
        pass.endpoint = Timings(endpoint)
        pass.secondOpinions = whisper.secondOpinionCount
        pass.alternativesChosen = whisper.alternativeChosenCount
        if let pid = await whisper.worker.processIdentifier(), let status = MemoryStatus(pid: pid), let atStart {
            pass.memory = "The worker started in \(Int(startup.rounded())) ms (Python's imports, the model's SHA-256 check, "
                + "the model's load) and was then resident at \(atStart.resident / 1024) MiB (peak \(atStart.peak / 1024) MiB). "
                + "After the run: \(status.resident / 1024) MiB (peak \(status.peak / 1024) MiB), model loaded once; "
                + "Parley's own process does not hold the model."
        }
        await whisper.worker.shutdown()
        return pass
    }

    /// One clip: fed fast up to its last 1.5 s, where speech ends, then in real time with one
    /// second of its background after it, as capture would deliver it.
    private func live(_ clip: RecognitionCorpus.Clip, _ whisper: WhisperRecognizer) async throws
        -> (texts: [String], decodeMilliseconds: Double, endpoints: [Double]) {
        let continuous = try await ContinuousRecognition(recognizer: whisper, locale: LocaleTag("en-US")!, options: .init())
        let tail = clip.tail ?? [Int16](repeating: 0, count: 16_000)
        let audio = clip.audio.samples + tail
        var texts: [String] = [], endpoints: [Double] = [], busy = 0.0
        let realTimeFrom = max(0, clip.audio.samples.count - 24_000)
        for start in stride(from: 0, to: audio.count, by: 160) {
            let chunk = PCMChunk(format: .recognition, samples: Array(audio[start..<min(start + 160, audio.count)]))
            var events: [RecognitionEvent] = []
            let milliseconds = try await measureMilliseconds { events = try await continuous.feed(chunk) }
            busy += milliseconds
            for case let .final(result) in events { texts.append(result.text); endpoints.append(milliseconds) }
            if start >= realTimeFrom { try await Task.sleep(for: .milliseconds(10)) }
        }
        for case let .final(result) in try await continuous.end() { texts.append(result.text) }
        return (texts, busy, endpoints)
    }

    private func pocketSphinxPass(_ set: [RecognitionCorpus.Clip], locale: LocaleTag) async throws -> Pass {
        let recognizer = PocketSphinxRecognizer(models: PocketSphinxModelRegistry(userDirectory: nil))
        _ = await recognizer.isAvailable(locale)
        var pass = Pass(decode: Timings([0]), endpoint: Timings([0]))
        var decode: [Double] = []
        for clip in set {
            var texts: [String] = []
            decode.append(try await measureMilliseconds {
                texts = try await recognizer.transcribe(PCMChunk(format: .recognition, samples: clip.audio.samples + (clip.tail ?? [])),
                                                        locale: locale).map(\.text)
            })
            pass.transcripts[clip.name] = texts.joined(separator: " ")
        }
        pass.decode = Timings(decode)
        return pass
    }

    private func vadComparison(_ label: String, _ set: [RecognitionCorpus.Clip], stock: [StockResult], parley: Pass) -> [[String]] {
        let silero = stock.map(\.segments.count)
        let sphinx = set.map { parley.utterances[$0.name] ?? 0 }
        return [
            [label, "sphinxbase front end (Parley)", "\(sphinx.filter { $0 == 1 }.count) / \(set.count)", "\(sphinx.reduce(0, +))"],
            [label, "Silero VAD v6 (faster-whisper's)", "\(silero.filter { $0 == 1 }.count) / \(set.count)", "\(silero.reduce(0, +))"],
        ]
    }

    // MARK: Noise

    /// `clip` with pink noise at `snr` dB (against the clip's own power), and a second of the
    /// same noise after it; deterministic.
    private func noisy(_ clip: RecognitionCorpus.Clip, snr: Double) -> RecognitionCorpus.Clip {
        let samples = clip.audio.samples
        let noise = PinkNoise.samples(count: samples.count + 16_000, seed: UInt64(samples.count))
        let power = { (values: ArraySlice<Double>) in values.map { $0 * $0 }.reduce(0, +) / Double(max(values.count, 1)) }
        let signalPower = power(samples.map(Double.init)[...])
        let scale = (signalPower / pow(10, snr / 10) / power(noise[...])).squareRoot()
        let mixed = noise.enumerated().map { index, value in
            let speech = index < samples.count ? Double(samples[index]) : 0
            return Int16(clamping: Int((speech + value * scale).rounded()))
        }
        var copy = clip
        copy.audio = PCMChunk(format: .recognition, samples: Array(mixed[..<samples.count]))
        copy.tail = Array(mixed[samples.count...])
        return copy
    }
}
