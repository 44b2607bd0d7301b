import Foundation
import Locales
import ParleyCore
import PocketSphinxRecognition
@testable import WhisperRecognition
@testable import Recognition
import TestSupport
import Testing

/// The Whisper worker's recovery, on the real worker and model.
@Suite("Whisper worker", .serialized)
struct WhisperWorkerTests {
    /// The samples of `text` spoken by eSpeak NG in `voice` at `speed` words a minute, read as
    /// Parley reads a file (written in `directory`).
    static func espeakSamples(_ text: String, voice: String, speed: Int, in directory: URL) throws -> [Int16] {
        let path = directory.appendingPathComponent("espeak.wav").path
        let made = try ProcessRunner.run(["espeak-ng", "-v", voice, "-s", String(speed), "-w", path, text])
        try #require(made.status == 0, "\(made.stderr)")
        return try AudioFileReader.read(path).samples
    }

    /// The installed worker and models, found as Parley finds them.
    static func installation() -> WhisperInstallation {
        WhisperInstallation.discover(shipped: Fixtures.dataDirectory, models: DataDirectories.defaultModels(),
                                     dataHome: DataDirectories.personalData())
    }

    static func recognizer(secondOpinion: Bool = true) throws -> WhisperRecognizer {
        let installation = installation()
        var tuning = WhisperRecognizer.Tuning()
        tuning.speculative = false
        tuning.partialResults = false
        tuning.secondOpinion = secondOpinion
        return WhisperRecognizer(worker: WhisperWorker(launch: try installation.launch()),
                                 detector: SphinxSpeechDetector.make, tuning: tuning)
    }

    @Test("a worker killed in the middle of an utterance is restarted and the utterance recognized")
    func killedMidUtterance() async throws {
        let whisper = try Self.recognizer()
        try await whisper.start()
        let first = try #require(await whisper.worker.processIdentifier())
        let samples = try Fixtures.rawSamples(Fixtures.recording("goforward.raw"))
        let request = try await whisper.makeRequest(locale: LocaleTag("en-US")!, options: .init(), newStream: true)
        let half = samples.count / 2
        var events = try await request.append(PCMChunk(format: .recognition, samples: Array(samples[..<half])))
        kill(first, SIGKILL)
        events += try await request.append(PCMChunk(format: .recognition, samples: Array(samples[half...])))
        if !events.contains(where: \.isFinal) {
            events += try await request.append(PCMChunk(format: .recognition, samples: [Int16](repeating: 0, count: 16_000)))
        }
        let finals = events.compactMap { event -> RecognitionResult? in
            if case let .final(result) = event { return result }
            return nil
        }
        #expect(finals.map(\.text) == ["Go forward 10 meters."])
        #expect(await whisper.worker.starts == 2)
        #expect(await whisper.worker.processIdentifier() != first)
        await whisper.worker.shutdown()
    }

    @Test("the worker ends on SIGTERM, though the thread that started it blocks signals")
    func endsOnTerminate() async throws {
        let whisper = try Self.recognizer()
        try await whisper.start()  // on a cooperative thread, whose signal mask the child inherits
        let pid = try #require(await whisper.worker.processIdentifier())
        kill(pid, SIGTERM)
        var running = true
        for _ in 0..<100 where running {
            try await Task.sleep(for: .milliseconds(100))
            running = Self.isRunning(pid)
        }
        #expect(!running, "the worker was still running 10 s after SIGTERM")
        await whisper.worker.shutdown()
    }

    @Test("the worker loads neither numpy nor PyAV nor onnxruntime nor OpenSSL: it is handed features, and stays small")
    func onlyTheRuntime() async throws {
        let whisper = try Self.recognizer()
        let samples = try Fixtures.rawSamples(Fixtures.recording("goforward.raw"))
        let results = try await whisper.transcribe(PCMChunk(format: .recognition, samples: samples), locale: LocaleTag("en-US")!)
        #expect(results.map(\.text) == ["Go forward 10 meters."])
        let pid = try #require(await whisper.worker.processIdentifier())
        // Read to the end: a /proc file reports no size, and a single read stops at a page.
        let data = try #require(try FileHandle(forReadingFrom: URL(fileURLWithPath: "/proc/\(pid)/maps")).readToEnd())
        let maps = String(decoding: data, as: UTF8.self)
        #expect(maps.contains("ctranslate2"), "the maps of a worker that decoded name CTranslate2's library")
        for library in ["/numpy/", "libscipy_openblas", "libavcodec", "/av/", "onnxruntime", "libcrypto", "libssl"] {
            #expect(!maps.contains(library), "\(library) is mapped in the worker")
        }
        // What the worker holds beyond CTranslate2 and the model themselves, each measured here:
        // the model's resident size depends on the CPU (a bare process holding it: 128 MiB on a
        // Xeon with AVX-512 FP16, where the worker held 144 MiB after this decode; on another,
        // the worker held 115). The worker as it was with numpy and faster-whisper loaded held
        // 31-33 MiB more than it does (146-148 MiB against 115), and asyncio, OpenSSL and a bytes
        // object per vocabulary token 13 MiB of that: what the worker adds must stay under 24 MiB.
        let resident = Double(try await Self.residentAtRest(pid)) / 1024
        let bare = try Self.bareRuntimeResident()
        #expect(resident - bare < 24, "the worker holds \(resident) MiB after one decode; CTranslate2 with the model alone holds \(bare) MiB")
        await whisper.worker.shutdown()
    }

    @Test("a request whose features do not fit the model is refused in one sentence, and the worker serves the next")
    func badFeaturesRefused() async throws {
        let installation = WhisperInstallation.discover(shipped: Fixtures.dataDirectory,
                                                        models: DataDirectories.defaultModels(),
                                                        dataHome: DataDirectories.personalData())
        let launch = try installation.launch()
        let process = try WhisperProcess(arguments: launch.arguments)
        defer { process.close() }
        let ready = try await process.ready(timeout: WhisperWorker.startTimeout)
        #expect(ready.protocol == WhisperFrames.protocolVersion && ready.mels == 80)
        let extractor = WhisperFeatures(mels: 80)
        let samples = try Fixtures.rawSamples(Fixtures.recording("goforward.raw"))
        let features = WhisperPadding.zeroFrames(seconds: 3).features(of: samples, with: extractor)
        var request = WhisperCall.Transcribe(language: "en", prompt: nil, beam: 1, alternatives: 0, words: false,
                                             window: .short, secondOpinion: false)
        func send(_ id: Int) async throws -> WhisperReply<WhisperTranscription> {
            let body = try await process.send(.init(id: id, call: .transcribe(request)), features: features.values, timeout: 60)
            return try JSONDecoder().decode(WhisperReply<WhisperTranscription>.self, from: body)
        }
        request.features = WhisperFeatureShape(mels: 81, frames: features.frames, audioSeconds: 0)
        let wrongBands = try await send(1)
        #expect(wrongBands == WhisperReply(id: 1, .refused("the model takes 80 mel bands, the request has 81")))
        request.features = WhisperFeatureShape(mels: 80, frames: features.frames + 1, audioSeconds: 0)
        let wrongSize = try await send(2)
        guard case let .refused(error) = wrongSize.outcome else { Issue.record("\(wrongSize)"); return }
        #expect(error.hasPrefix("the payload holds \(features.values.count * 4) bytes, not 80 x \(features.frames + 1)"), "\(error)")
        request.features = WhisperFeatureShape(mels: 80, frames: features.frames, audioSeconds: Double(samples.count) / 16_000)
        let right = try await send(3)
        guard case let .answer(answer) = right.outcome else { Issue.record("\(right)"); return }
        #expect(answer.text == "Go forward 10 meters.")
    }

    @Test("the worker does not grow with every new utterance length: oneDNN's primitive cache is off")
    func noGrowthOverUtteranceLengths() async throws {
        let whisper = try Self.recognizer(secondOpinion: false)
        let samples = try Fixtures.rawSamples(Fixtures.recording("goforward.raw"))
        let pid = try #require(await { try await whisper.start(); return await whisper.worker.processIdentifier() }())
        func settled() async throws -> Int { try await Self.residentAtRest(pid) }
        // 30 lengths, from the whole 2.8 s down by 50 ms each: each gives the encoder's
        // convolutions a shape they have not had. With oneDNN's cache (up to 1024 entries;
        // ONEDNN_PRIMITIVE_CACHE_CAPACITY=1024 in the environment) this test measured 21 MiB
        // of growth; without it, 0-3 MiB.
        var afterFifth = 0
        for index in 0..<30 {
            let answer = try await whisper.decode(Array(samples.dropLast(index * 800)), language: "en",
                                                  options: .init(), final: true)
            #expect(answer.text.lowercased().contains("forward"), "decode \(index): \(answer.text)")
            if index == 4 { afterFifth = try await settled() }
        }
        let growth = Double(try await settled() - afterFifth) / 1024
        #expect(growth < 12, "the worker grew by \(growth) MiB over 25 utterances of new lengths")
        await whisper.worker.shutdown()
    }

    /// The resident memory of process `pid` at rest, in KiB. The worker hands a decode's buffers
    /// back (malloc_trim) after it has answered, so a reading right after the answer may come
    /// before or after that: the lowest of readings over 0.3 s is the worker at rest.
    static func residentAtRest(_ pid: Int32) async throws -> Int {
        func resident() throws -> Int {
            let status = try String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)
            let line = try #require(status.split(separator: "\n").first { $0.hasPrefix("VmRSS:") })
            return try #require(Int(line.split(separator: " ", omittingEmptySubsequences: true)[1]))
        }
        var lowest = try resident()
        for _ in 0..<30 {
            try await Task.sleep(for: .milliseconds(10))
            lowest = min(lowest, try resident())
        }
        return lowest
    }

    /// The resident MiB of a bare process in the worker's Python that imports CTranslate2 as the
    /// worker does (`memory.import_runtime`, oneDNN's primitive cache off) and loads the installed
    /// model as the worker does (int8, two threads), after handing freed memory back.
    static func bareRuntimeResident() throws -> Double {
        let installation = installation()
        let model = try #require(installation.models.first).path
        let program = """
            import re, sys
            sys.path.insert(0, sys.argv[1])
            from parley_worker import memory
            memory.no_primitive_cache()
            ctranslate2 = memory.import_runtime()
            model = ctranslate2.models.Whisper(sys.argv[2], device="cpu", compute_type="int8", intra_threads=2, inter_threads=1)
            memory.release_memory()
            print(re.search(r"VmRSS:\\s+(\\d+)", open("/proc/self/status").read()).group(1))
            """
        let worker = (installation.script as NSString).deletingLastPathComponent
        let run = try ProcessRunner.run([installation.python, "-c", program, worker, model])
        try #require(run.status == 0, "\(run.stderr)")
        return try #require(Double(run.stdout.trimmingCharacters(in: .whitespacesAndNewlines))) / 1024
    }

    /// Whether PID is a live process; a zombie (ended, not yet reaped) is not.
    static func isRunning(_ pid: Int32) -> Bool {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let close = stat.lastIndex(of: ")") else { return false }
        let state = stat[stat.index(after: close)...].split(separator: " ").first
        return state != "Z" && state != "X"
    }

    @Test("silence and noise below speech are not words")
    func silenceIsEmpty() async throws {
        let whisper = try Self.recognizer()
        let quiet = (0..<48_000).map { _ in Int16.random(in: -40...40) }
        let results = try await whisper.transcribe(PCMChunk(format: .recognition, samples: quiet), locale: LocaleTag("en-US")!)
        #expect(results.isEmpty)
        await whisper.worker.shutdown()
    }

    @Test("a loop is cut only in a decode that reached its token limit; speech that repeats itself is kept")
    func loopsAreCut() throws {
        // trim_loop with a toy vocabulary: the sentence begun again after a full stop is
        // spelled " He" (another token than the first "He"). The flag says whether the decode
        // reached its token limit, the one sign of a loop.
        let script = """
            import importlib.util, sys
            spec = importlib.util.spec_from_file_location("worker", sys.argv[1])
            worker = importlib.util.module_from_spec(spec); spec.loader.exec_module(worker)
            vocabulary = {1: "He", 2: " might", 3: " even", 4: " be", 5: " am", 6: "iable", 7: ".", 8: " He", 9: " No",
                          10: "No", 11: " 5", 12: "5", 13: " have", 14: " been", 15: " made", 16: " still", 17: " more",
                          18: " himself"}
            decode = lambda tokens: "".join(vocabulary[t] for t in tokens)
            twice = [1, 2, 3, 4, 5, 6, 7, 8, 2, 3, 4, 5, 6, 7]
            phrase = [1, 2, 13, 14, 15, 16, 17, 7, 8, 2, 3, 13, 14, 15, 5, 6, 18, 7]
            for tokens, limit in (([1, 2, 3, 4, 5, 6, 7, 8, 2, 3, 4, 5], True), ([1, 2, 3, 8, 2, 3, 8], True),
                                  ([12, 11, 11, 11, 11, 11], True), ([10, 7, 9, 7], True), ([1, 2, 3, 4, 5, 6, 7], True),
                                  (twice, False), (twice[:12], False), (phrase, True), (phrase, False)):
                print(decode(worker.trim_loop(tokens, decode, limit)))
            # CTranslate2 decodes min(max_length / 2, max_length - (prompt - 1)) tokens.
            lets_through = lambda limit, prompt: min(worker.generation_length(limit, prompt) // 2,
                                                     worker.generation_length(limit, prompt) - (prompt - 1))
            print(all(lets_through(worker.token_limit(seconds, prompt), prompt) >= worker.token_limit(seconds, prompt)
                      for seconds in (0.5, 3, 17.8, 27, 30) for prompt in (4, 40, 227)),
                  worker.token_limit(17.8, 4), worker.token_limit(30, 4))
            """
        let worker = Fixtures.repository.appendingPathComponent("worker/whisper_worker.py").path
        let output = try ProcessRunner.run(["python3", "-c", script, worker])
        #expect(output.status == 0, "\(output.stderr)")
        #expect(output.stdout.split(separator: "\n") == [
            "He might even be amiable.",        // at the limit: the sentence begun again is cut
            "He might even",                    // at the limit: a sentence started over and over
            "5",                                // at the limit: one word over and over
            "No. No.",                          // one word said twice is not a loop
            "He might even be amiable.",        // nothing repeated, nothing cut
            "He might even be amiable. He might even be amiable.",  // said twice, ended by itself: kept
            "He might even be amiable. He might even be am",        // not at the limit: kept
            "He might have been made still more. He might even have been made amiable himself.",  // a phrase again
            "He might have been made still more. He might even have been made amiable himself.",
            "True 143 224",                     // every limit gets through CTranslate2's halving
        ])
    }

    @Test("the worker decodes with the model's vocabulary exactly as with its tokenizer.json, which it loads only to encode a prompt")
    func vocabularyDecodesAsTheTokenizer() throws {
        let installation = WhisperInstallation.discover(shipped: Fixtures.dataDirectory,
                                                        models: DataDirectories.defaultModels(),
                                                        dataHome: DataDirectories.personalData())
        let model = try #require(installation.models.first).path
        let script = """
            import importlib.util, random, sys
            spec = importlib.util.spec_from_file_location("worker", sys.argv[1])
            worker = importlib.util.module_from_spec(spec); spec.loader.exec_module(worker)
            import tokenizers
            vocabulary = worker.VocabularyTokenizer(sys.argv[2])
            print("loaded", vocabulary.full is not None)
            reference = tokenizers.Tokenizer.from_file(sys.argv[2] + "/tokenizer.json")
            end = vocabulary.token_to_id("<|endoftext|>")
            differ = [i for i in range(end) if vocabulary.decode([i]) != reference.decode([i])]
            random.seed(7)
            for _ in range(5000):
                ids = [random.randrange(end) for _ in range(random.randrange(1, 16))]
                if vocabulary.decode(ids) != reference.decode(ids):
                    differ.append(ids)
            print("text tokens", end, "differ", len(differ))
            specials = ["<|en|>", "<|es|>", "<|startoftranscript|>", "<|transcribe|>", "<|notimestamps|>", "<|nocaptions|>"]
            print("special", all(vocabulary.token_to_id(t) == reference.token_to_id(t) for t in specials),
                  vocabulary.id_to_token(vocabulary.token_to_id("<|es|>")))
            print("multibyte", vocabulary.decode(reference.encode(" señor café 東京", add_special_tokens=False).ids))
            print("loaded", vocabulary.full is not None)
            print("encode", vocabulary.encode(" Elinor", add_special_tokens=False).ids == reference.encode(" Elinor", add_special_tokens=False).ids)
            print("loaded", vocabulary.full is not None)
            """
        let worker = Fixtures.repository.appendingPathComponent("worker/whisper_worker.py").path
        let output = try ProcessRunner.run([installation.python, "-c", script, worker, model])
        #expect(output.status == 0, "\(output.stderr)")
        #expect(output.stdout.split(separator: "\n") == [
            "loaded False",                         // decoding needs no tokenizer.json
            "text tokens 50257 differ 0",           // every text token, and 5000 random runs of them
            "special True <|es|>",
            "multibyte  señor café 東京",
            "loaded False",
            "encode True",                          // a prompt loads the full tokenizer
            "loaded True",
        ], "\(output.stderr)")
    }

    @Test("the framed request carries the header and the samples little-endian")
    func requestFrame() throws {
        let request = WhisperCall.Frame(id: 7, call: .transcribe(.init(language: "es", prompt: nil, beam: 1, alternatives: 0,
                                                                      words: false, window: .short, secondOpinion: false)))
        let frame = try WhisperFrames.request(request, payload: [1.5, -2])
        let headerLength = WhisperFrames.length(Array(frame.prefix(4)))
        let decoded = try JSONDecoder().decode(WhisperCall.Frame.self, from: frame.subdata(in: 4..<(4 + headerLength)))
        #expect(decoded == request)
        let rest = Array(frame.suffix(from: 4 + headerLength))
        #expect(WhisperFrames.length(rest) == 8)
        // float32 little-endian: 1.5 is 0x3FC00000, -2 is 0xC0000000
        #expect(Array(rest.suffix(8)) == [0, 0, 0xC0, 0x3F, 0, 0, 0, 0xC0])
    }
}
