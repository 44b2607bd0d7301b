import Foundation
import Locales
import Testing
import TestSupport
import TranslationReference

/// Whisper recognition end to end: the real worker, the real model that `make models`
/// installed, the human recordings, and eSpeak NG's Spanish.
@Suite("Whisper recognition", .serialized)
struct WhisperRecognitionTests {
    /// The installed pinned model, where `scripts/install-whisper.sh` puts it.
    static var installedModel: String { "\(DataDirectories.defaultModels())/whisper-base" }

    static let recordings: [(String, String)] = {
        var list = [("goforward.raw", "go forward ten meters"), ("something.raw", "go somewhere and do something")]
        let listing = (try? String(contentsOfFile: Fixtures.recording("librivox/transcription"), encoding: .utf8)) ?? ""
        for line in listing.split(separator: "\n") {
            guard let open = line.lastIndex(of: "(") else { continue }
            let id = line[line.index(after: open)...].dropLast()
            let words = line[..<open].split(separator: " ").filter { $0 != "<s>" && $0 != "</s>" }
            list.append(("librivox/\(id).wav", words.joined(separator: " ")))
        }
        return list
    }()

    func listen(_ arguments: [String], environment: [String: String] = [:]) throws -> ProcessRunner.Output {
        try ProcessRunner.parley(["listen", "--recognizer", "whisper"] + arguments, environment: environment)
    }

    @Test("the human recordings through `parley listen --file`: each at most one error more than stock Whisper, one in all")
    func humanRecordings() throws {
        try #require(Self.recordings.count == 7)
        var errors = 0, stock = 0, words = 0, heard: [String] = []
        for (name, reference) in Self.recordings {
            let output = try listen(["--file", Fixtures.recording(name)])
            #expect(output.status == 0, "\(name): \(output.stderr)")
            let text = output.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
            heard.append(text)
            let (own, stocks) = (SpokenWords.errors(text, reference: reference), try StockReadings.whisperErrors(name))
            #expect(own <= stocks + 1, "\(name): \(own) errors, stock Whisper makes \(stocks): '\(text)'")
            (errors, stock, words) = (errors + own, stock + stocks, words + SpokenWords.normalized(reference).count)
        }
        #expect(words == 80 && stock == 1)
        #expect(errors <= stock + 1, "\(errors) errors in \(words) words (stock Whisper: \(stock)): \(heard)")
    }

    @Test("--json has confidence from token probabilities, word times and no constant values")
    func jsonDetail() throws {
        let outputs = try ["goforward.raw", "librivox/sense_and_sensibility_01_austen_64kb-0930.wav"].map { name in
            try listen(["--file", Fixtures.recording(name), "--json"])
        }
        let objects = try outputs.map { try #require(try JSONSerialization.jsonObject(with: Data($0.stdout.utf8)) as? [String: Any]) }
        let confidences = objects.compactMap { $0["confidence"] as? Double }
        #expect(confidences.count == 2 && confidences.allSatisfy { $0 > 0.3 && $0 < 1 } && confidences[0] != confidences[1])
        let words = try #require(objects[1]["words"] as? [[String: Any]])
        #expect(SpokenWords.normalized(words.compactMap { $0["word"] as? String }.joined(separator: " "))
                == ["he", "might", "even", "have", "been", "made", "amiable", "himself"])
        let starts = words.compactMap { $0["start"] as? Double }, ends = words.compactMap { $0["end"] as? Double }
        #expect(starts.count == words.count && zip(starts, ends).allSatisfy { $0 < $1 })
        #expect(starts == starts.sorted() && (ends.last ?? 0) > 1.5, "times span the utterance: \(starts) \(ends)")
        #expect(Set(words.compactMap { $0["confidence"] as? Double }).count > 1, "word confidences differ")
    }

    @Test("live through the PulseAudio session: the transcript's words within stock's errors + 1, the file's words exactly")
    func liveEqualsFile() throws {
        let name = "librivox/sense_and_sensibility_01_austen_64kb-0890.wav"
        let clip = Fixtures.recording(name)
        let file = try listen(["--file", clip])
        try #require(file.status == 0, "\(file.stderr)")
        let microphone = try LoopbackDevice(label: "whisper")
        let child = try ChildProcess.parley(["listen", "--recognizer", "whisper", "--source", microphone.monitor,
                                             "--partial", "--utterances", "1"], environment: ["PARLEY_LOG": "info"])
        #expect(child.waitFor(seconds: 60) { _, stderr in stderr.contains("listening for en-US speech") })
        try microphone.play(clip)
        #expect(child.wait(seconds: 60) == 0, "listen failed: \(child.stderr)")
        let lines = child.stdout.split(separator: "\n").map(String.init)
        let live = try #require(lines.last, "nothing heard: \(child.stderr)")
        let (errors, stock) = (SpokenWords.errors(live, reference: try StockReadings.transcript(name)), try StockReadings.whisperErrors(name))
        #expect(errors <= stock + 1, "heard '\(live)': \(errors) errors, stock Whisper makes \(stock)")
        // The words, not the punctuation: a capture starts at any phase of the detector's frames,
        // and the sentence's last mark is Whisper's choice at its edge (a CI run read "?" for ".").
        #expect(SpokenWords.normalized(live) == SpokenWords.normalized(file.stdout),
                "live '\(live)', from the file '\(file.stdout.trimmingCharacters(in: .newlines))'")
        #expect(lines.dropLast().contains { $0.hasPrefix("partial: ") }, "partial results came first: \(lines)")
    }

    @Test("eSpeak NG's Spanish is recognized as Spanish, within one word error of the measured")
    func spanish() throws {
        let directory = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let sentence = "el tren sale de la estación a las ocho de la mañana"
        let clip = try spanishClip(sentence, in: directory)
        let output = try listen(["--file", clip, "--locale", "es-ES"])
        #expect(output.status == 0, "\(output.stderr)")
        let heard = output.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        try HeardSpeech.expectSpanish(heard, sentence, live: false)
    }

    @Test("--phrases favour the words a person expects")
    func phrases() throws {
        let directory = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let phrases = directory.appendingPathComponent("phrases.txt")
        try "# words of the book\nill-disposed\n".write(to: phrases, atomically: true, encoding: .utf8)
        let clip = Fixtures.recording("librivox/sense_and_sensibility_01_austen_64kb-0880.wav")
        let plain = try listen(["--file", clip])
        let guided = try listen(["--file", clip, "--phrases", phrases.path])
        #expect(guided.status == 0, "\(guided.stderr)")
        #expect(guided.stdout.contains("ill-disposed"), "\(guided.stdout)")
        #expect(plain.stdout != guided.stdout, "the phrases changed what was heard")
        let missing = try listen(["--file", clip, "--phrases", "/nonexistent/phrases.txt"])
        #expect(missing.status == 64 && missing.stderr.contains("cannot read the phrases file /nonexistent/phrases.txt"))
    }

    @Test(":recognizer and :phrases in a conversation")
    func replCommands() throws {
        let lines = [":recognizer", ":recognizer B pocketsphinx", ":recognizer A pocketsphinx", ":recognizer",
                     ":phrases Elinor, Norland Park", ":phrases", ":phrases clear", ":phrases"]
        let output = try ProcessRunner.parley(["--no-history", "--no-transcript", "--server", "unix:/nonexistent"],
                                              input: Data((lines.joined(separator: "\n") + "\n").utf8))
        #expect(output.status == 0, "\(output.stderr)")
        let said = output.stdout.split(separator: "\n").map(String.init)
        #expect(said.contains("side A (en-US): whisper") && said.contains("side B (es-ES): whisper"), "\(said)")
        #expect(said.contains("error: pocketsphinx cannot recognize es-ES here"))
        #expect(said.contains("side A (en-US) is now recognized by pocketsphinx"))
        #expect(said.contains("side A (en-US): pocketsphinx"))
        #expect(said.filter { $0 == "phrases: Elinor, Norland Park" }.count == 2)
        #expect(said.contains("phrases cleared"))
        #expect(said.contains { $0.hasPrefix("no phrases") })
    }

    @Test("a final the short window calls silent is decoded again in the full window, whose verdict stands")
    func silentShortWindowIsDecodedAgain() throws {
        let directory = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        var rescued = 0
        for (index, (voice, speed, text)) in NearSilenceClips.clips.enumerated() {
            let path = directory.appendingPathComponent("clip\(index).wav").path
            let made = try ProcessRunner.run(["espeak-ng", "-v", voice, "-s", String(speed), "-w", path, text])
            try #require(made.status == 0)
            let output = try listen(["--file", path, "--locale", "es-ES"], environment: ["PARLEY_LOG": "debug"])
            let clip = "\(voice) at \(speed): \(text)"
            #expect(output.status == 0 || output.stderr.contains("no speech was recognized"), "\(clip): \(output.stderr)")
            let decodes = output.stderr.split(separator: "\n").filter { $0.hasSuffix("decoded") }
            let heard = !output.stdout.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty
            guard let last = decodes.last else {
                Issue.record("\(clip): no decode was logged")
                continue
            }
            let full = decodes.filter { $0.contains("window=full") }
            // The full window is asked only after a short-window final called silent, once, last.
            #expect(full.count <= 1, "\(clip): \(decodes)")
            if let second = full.first {
                let before = decodes[decodes.index(before: decodes.firstIndex(of: second)!)]
                #expect(before.contains("window=short") && before.contains("silent=true"), "\(clip): \(decodes)")
                #expect(second == last, "\(clip): the second opinion is the last decode: \(decodes)")
            } else {
                #expect(last.contains("silent=false") == heard, "\(clip): \(decodes)")
            }
            // Whatever window spoke last decides: heard there means printed, silent means nothing.
            #expect(last.contains("silent=false") == heard, "\(clip): \(decodes) → '\(output.stdout)'")
            if full.first?.contains("silent=false") == true { rescued += 1 }
        }
        #expect(rescued >= 2, "\(rescued) of \(NearSilenceClips.clips.count) clips were heard through the second opinion")
    }

    @Test("a minute of digital silence, white or pink noise is no speech, and never reaches the decoder")
    func steadySoundIsNotDecoded() throws {
        let directory = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let sounds: [(String, [String])] = [("silence", ["trim", "0", "60"]),
                                            ("white noise", ["synth", "60", "whitenoise", "vol", "0.1"]),
                                            ("pink noise", ["synth", "60", "pinknoise", "vol", "0.1"])]
        for (name, effect) in sounds {
            let path = directory.appendingPathComponent("\(name).wav").path
            let made = try ProcessRunner.run(["sox", "-n", "-r", "16000", "-c", "1", "-b", "16", path] + effect)
            try #require(made.status == 0, "\(made.stderr)")
            let output = try listen(["--file", path], environment: ["PARLEY_LOG": "debug"])
            let lines = output.stderr.split(separator: "\n")
            // The detector opens utterances on steady sound too; none of them costs a decode.
            #expect(lines.filter { $0.hasSuffix("decoded") }.isEmpty, "\(name): \(lines.filter { $0.hasSuffix("decoded") })")
            #expect(output.stdout.isEmpty && output.status == 1 && output.stderr.contains("no speech was recognized"),
                    "\(name): \(output.status) \(output.stderr.suffix(300))")
        }
    }

    @Test("clicks, hum and hiss that get past the detector do not become words")
    func noiseIsNotWords() throws {
        let directory = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        var generator = SplitMix(seed: 1)
        let clicks = (0..<48_000).map { _ in generator.next() % 500 == 0 ? Int16(20_000) : 0 }
        let hum = (0..<48_000).map { Int16(3_000 * sin(2 * Double.pi * 100 * Double($0) / 16_000)) }
        let hiss = (0..<48_000).map { _ in Int16(Int(generator.next() % 6_001) - 3_000) }
        for (name, samples) in [("clicks", clicks), ("hum", hum), ("hiss", hiss)] {
            let path = directory.appendingPathComponent("\(name).raw").path
            try samples.withUnsafeBufferPointer { Data(buffer: $0) }.write(to: URL(fileURLWithPath: path))
            let output = try listen(["--file", path])
            #expect(output.stdout.isEmpty, "\(name) was heard as '\(output.stdout)'")
            #expect(output.status == 1 && output.stderr == "parley: no speech was recognized (empty recognition)\n",
                    "\(name): \(output.stderr)")
        }
    }

    @Test("a damaged model file is refused with its SHA-256")
    func damagedModel() throws {
        let models = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: models) }
        let folder = models.appendingPathComponent("whisper-base")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        for file in ["config.json", "tokenizer.json", "vocabulary.txt"] {
            try FileManager.default.copyItem(atPath: "\(Self.installedModel)/\(file)", toPath: folder.appendingPathComponent(file).path)
        }
        var weights = try Data(contentsOf: URL(fileURLWithPath: "\(Self.installedModel)/model.bin"))
        weights[weights.count / 2] ^= 0xFF
        try weights.write(to: folder.appendingPathComponent("model.bin"))
        let output = try listen(["--file", Fixtures.recording("goforward.raw"), "--models", models.path])
        #expect(output.status == 1)
        #expect(output.stderr.contains("has SHA-256"), "\(output.stderr)")
        #expect(output.stderr.contains("expected \(try #require(WhisperInstallTests.pinned).sha256)"))
        #expect(output.stderr.split(separator: "\n").count == 1)
    }

    @Test("a missing model says how to install it; without --recognizer, en-US falls back to PocketSphinx")
    func missingModel() throws {
        let models = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: models) }
        let output = try listen(["--file", Fixtures.recording("goforward.raw"), "--models", models.path])
        #expect(output.status == 1)
        #expect(output.stderr.hasPrefix("parley: a Whisper model is not installed; run `make models`"), "\(output.stderr)")
        let fallback = try ProcessRunner.parley(["listen", "--file", Fixtures.recording("goforward.raw"), "--models", models.path])
        #expect(fallback.status == 0 && fallback.stdout == "go forward ten meters\n", "\(fallback.stderr)")
    }

    @Test("a spoken dialogue: B speaks Spanish into the microphone, English is heard on the speaker")
    func spanishSpeakerInADialogue() throws {
        let directory = try Fixtures.temporaryDirectory("parley-whisper-dialogue")
        defer { try? FileManager.default.removeItem(at: directory) }
        let sentence = "quiero un café con leche"
        let clip = try spanishClip(sentence, in: directory)
        let transcript = directory.appendingPathComponent("t.jsonl").path
        let (microphone, speaker) = (try LoopbackDevice(label: "wmic"), try LoopbackDevice(label: "wspk"))
        let run = try DialogueRun(["dialog", "en-US", "es-ES", "--transcript", transcript, "--no-history",
                                   "--source", microphone.monitor, "--sink", speaker.sink],
                                  environment: ["XDG_STATE_HOME": directory.path])
        try run.waitForLine(timeout: 90) { $0.hasPrefix("A (en-US), your turn") }
        run.send("Good morning.")
        try run.waitForLine(timeout: 60) { $0.hasPrefix("B (es-ES), your turn") }
        // The turn line follows the drain; the capture gate reopens after the playback tail has
        // played, a moment later (longer through PipeWire's graph). B speaks after that moment.
        Thread.sleep(forTimeInterval: 0.5)
        let english = try speaker.startRecording()
        try microphone.play(clip)
        try run.waitForLine(count: 2, timeout: 90) { $0.hasPrefix("A (en-US), your turn") }
        let heardOnSpeaker = try english.stop(after: HeardSpeech.tail)
        #expect(try run.finish() == 0, "\(run.stderr)")

        let turns = try String(contentsOfFile: transcript, encoding: .utf8).split(separator: "\n")
            .map { try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]) }
        try #require(turns.count == 2, "two turns:\n\(run.stdout)\n\(run.stderr)")
        let spoken = turns[1]
        #expect(spoken["side"] as? String == "B" && spoken["input"] as? String == "speech")
        #expect(spoken["locale"] as? String == "es-ES" && spoken["target_locale"] as? String == "en-US")
        let text = try #require(spoken["text"] as? String)
        // Not held to the file's words exactly, as the English recording is in DialogueEndToEndTests:
        // where the clip starts within the detector's 10 ms frames changes what Whisper base
        // hears of eSpeak NG's Spanish. The sentence is one it hears the same at every start:
        // read from a file after 0 to 17 ms or one second of silence, at 16 kHz or 22.05 kHz,
        // it gave "Quiero un café con leche" 10 times out of 10, and so did five live runs on both
        // servers with the CPU busy. ("dónde está la estación de
        // tren", used before, gave anything from "…de tren" to "donde estar a esta sion de
        // pleno", one word right, and failed a CI run.) The translation and the speech follow
        // whatever was heard, exactly.
        try HeardSpeech.expectSpanish(text, sentence, live: true)
        let translation = try ApertiumReference.cleaned("spa-eng", text)
        #expect(spoken["translation"] as? String == translation)
        try expectSpeech(heardOnSpeaker, saying: translation, locale: "en-US", in: directory)
    }

    /// Spanish speech by eSpeak NG (es-419 at 140 words a minute: the voice Whisper base hears best).
    private func spanishClip(_ sentence: String, in directory: URL) throws -> String {
        let path = directory.appendingPathComponent("spanish.wav").path
        let made = try ProcessRunner.run(["espeak-ng", "-v", "es-419", "-s", "140", "-w", path, sentence])
        try #require(made.status == 0, "\(made.stderr)")
        return path
    }
}

/// A small deterministic generator for test noise.
struct SplitMix {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
