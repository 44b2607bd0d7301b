import Foundation
import TestSupport
import TranslationReference
import Testing

/// `parley dialog` on the real engines and the private audio server, standard input a pipe.
@Suite("Dialogue end to end", .serialized)
struct DialogueEndToEndTests {
    /// A LibriVox sentence: "he might even have been made amiable himself".
    static let recordingName = "librivox/sense_and_sensibility_01_austen_64kb-0930.wav"
    static let recording = Fixtures.recording(recordingName)

    /// "go forward ten meters", raw 16 kHz samples: what the PocketSphinx dialogue hears.
    ///
    /// Why not the LibriVox sentence: PocketSphinx frames the audio in 10 ms (160-sample)
    /// frames from the first sample after the capture gate opens, so the recording starts
    /// at whatever phase of a frame the playback happened to begin, and the frames, their
    /// features and the search differ with it. Read from the file after a second of silence
    /// plus 0…159 samples, the LibriVox sentence reads three ways: "…made amiable himself"
    /// (phases 0–3, 8, 144, 147), "…made a real boy i'm self taught" (136, 138, 142) and
    /// "…made a real boy myself so" (the other 150) — the readings the live dialogue printed
    /// from run to run. The length of the silence does not matter (a quarter of a second to a
    /// second and a half at phase 0 all read "amiable himself"), and the dialogue's first
    /// utterance follows only that silence (the decoder's stream starts when its model loads).
    /// No decoder setting removes the phase, and a test cannot choose the sample at which
    /// PulseAudio starts a playback in the capture. This recording reads the same at all 160
    /// phases, so the words heard live must be the file's, exactly.
    static let phaseSteadyName = "goforward.raw"
    static let phaseSteadyRecording = Fixtures.recording(phaseSteadyName)

    /// What `parley listen --recognizer RECOGNIZER --file PATH` prints, as the dialogue writes
    /// a recognized text (surrounding white space trimmed).
    private func fileReading(_ recognizer: String, _ path: String) throws -> String {
        let output = try ProcessRunner.parley(["listen", "--recognizer", recognizer, "--file", path])
        try #require(output.status == 0, "\(output.stderr)")
        return output.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Expects `heard` to have at most one word error more than the stock engine's reading of
    /// the recording `name` (`stockErrors`), both against the recording's transcript.
    private func expectTranscript(_ heard: String, of name: String, stockErrors: Int,
                                  sourceLocation: SourceLocation = #_sourceLocation) throws {
        let reference = try StockReadings.transcript(name)
        let errors = SpokenWords.errors(heard, reference: reference)
        #expect(errors <= stockErrors + 1, "heard '\(heard)' for '\(reference)': \(errors) errors, stock makes \(stockErrors)",
                sourceLocation: sourceLocation)
    }

    /// What `apertium -u PAIR` prints for `text`, after the clean-up the dialogue applies too.
    private func apertium(_ text: String, _ pair: String) throws -> String {
        try ApertiumReference.cleaned(pair, text)
    }

    private func turns(_ path: String) throws -> [[String: Any]] {
        try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n")
            .map { try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]) }
    }

    /// `parley dialog en-US es-ES` with `arguments`: A speaks `recording` into the microphone,
    /// B types a Spanish line. Checks both turns' translations (against `apertium -u`), the
    /// speech on the speaker (against `parley say --out`) and the transcript; returns the text
    /// the transcript has for the spoken turn, for the caller to compare.
    private func spokenThenTypedTurn(_ arguments: [String], speaking recording: String, raw: Bool = false,
                                     in directory: URL) throws -> String {
        let transcript = directory.appendingPathComponent("t.jsonl").path
        let (microphone, speaker) = (try LoopbackDevice(label: "e2emic"), try LoopbackDevice(label: "e2espk"))
        let run = try DialogueRun(["dialog", "en-US", "es-ES", "--transcript", transcript, "--no-history",
                                   "--source", microphone.monitor, "--sink", speaker.sink] + arguments,
                                  environment: ["XDG_STATE_HOME": directory.path])
        try run.waitForLine(timeout: 90) { $0.hasPrefix("A (en-US), your turn") }
        // The turn line is printed just before the capture gate opens; A speaks after that.
        Thread.sleep(forTimeInterval: 0.5)
        let spanishSpeech = try speaker.startRecording()
        try microphone.play(recording, raw: raw)
        try run.waitForLine(timeout: 90) { $0.hasPrefix("B (es-ES), your turn") }  // printed once speaking has drained
        let spanish = try spanishSpeech.stop(after: HeardSpeech.tail)

        let englishSpeech = try speaker.startRecording()
        let typed = "¿Dónde está la estación de tren?"
        run.send(typed)
        try run.waitForLine(count: 2) { $0.hasPrefix("A (en-US), your turn") }
        let english = try englishSpeech.stop(after: HeardSpeech.tail)
        let status = try run.finish()

        #expect(status == 0, "\(run.stderr)")
        let written = try turns(transcript)
        try #require(written.count == 2, "both turns are written:\n\(run.stdout)\n\(run.stderr)")
        let heard = try #require(written[0]["text"] as? String)
        #expect(written[0]["side"] as? String == "A" && written[0]["input"] as? String == "speech")
        let translation = try apertium(heard, "eng-spa")
        #expect(written[0]["translation"] as? String == translation)
        #expect(written[0]["target_locale"] as? String == "es-ES")
        try expectSpeech(spanish, saying: translation, locale: "es-ES", in: directory)

        #expect(written[1]["side"] as? String == "B" && written[1]["input"] as? String == "typed")
        #expect(written[1]["text"] as? String == typed)
        let englishTranslation = try apertium(typed, "spa-eng")
        #expect(written[1]["translation"] as? String == englishTranslation)
        #expect(written[1]["target_locale"] as? String == "en-US")
        try expectSpeech(english, saying: englishTranslation, locale: "en-US", in: directory)
        return heard
    }

    /// Whisper, the default recognizer for en-US where it is installed (as `make test` installs
    /// it), with the defaults (the canceller on): the live words are the transcript's, with at
    /// most one error more than stock Whisper makes (none: `StockReadings.whisper`), and the
    /// file's words exactly. Unlike PocketSphinx (see `phaseSteadyRecording`), Whisper reads the
    /// LibriVox sentence the same at every frame phase tried (every tenth of the 160, and 3, 7,
    /// 136 and 142, where PocketSphinx's reading changes). Its punctuation is not part of the
    /// comparison: through pipewire-pulse's canceller it once wrote "made, amiable" for the
    /// file's "made amiable", the same words.
    @Test func aSpokenTurnThenATypedTurnAreTranslatedSpokenAndWritten() throws {
        let directory = try Fixtures.temporaryDirectory("parley-e2e")
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = try fileReading("whisper", Self.recording)
        let heard = try spokenThenTypedTurn([], speaking: Self.recording, in: directory)
        try expectTranscript(heard, of: Self.recordingName, stockErrors: try StockReadings.whisperErrors(Self.recordingName))
        #expect(SpokenWords.normalized(heard) == SpokenWords.normalized(file),
                "the dialogue heard '\(heard)'; parley listen --recognizer whisper --file reads '\(file)'")
    }

    /// PocketSphinx (`--recognizer pocketsphinx`) on the half-duplex path (`--echo-cancel off`): the
    /// live words are the transcript's, with at most one error more than `pocketsphinx_continuous`
    /// makes (none: `StockReadings.pocketSphinx`), and exactly the file's. Exactly the file's words
    /// hold on the raw microphone only: through pipewire-pulse's canceller, whose WebRTC processing
    /// has settings of its own, PocketSphinx read "go forward ten meters" as "go forward and reverse".
    @Test func aSpokenTurnWithPocketSphinxOnTheHalfDuplexPathIsTheFilesWordsExactly() throws {
        let directory = try Fixtures.temporaryDirectory("parley-e2e")
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = try fileReading("pocketsphinx", Self.phaseSteadyRecording)
        let heard = try spokenThenTypedTurn(["--recognizer", "pocketsphinx", "--echo-cancel", "off"],
                                            speaking: Self.phaseSteadyRecording, raw: true,
                                            in: directory)
        try expectTranscript(heard, of: Self.phaseSteadyName, stockErrors: try StockReadings.pocketSphinxErrors(Self.phaseSteadyName))
        #expect(heard == file, "the dialogue heard '\(heard)'; parley listen --recognizer pocketsphinx --file reads '\(file)'")
    }

    @Test func aTranscriptFileThatCannotBeOpenedStopsTheStartInOneSentence() throws {
        let directory = try Fixtures.temporaryDirectory("parley-e2e")
        defer { try? FileManager.default.removeItem(at: directory) }
        let plain = directory.appendingPathComponent("plain.txt").path
        try Data("x".utf8).write(to: URL(fileURLWithPath: plain))
        let output = try ProcessRunner.parley(
            ["dialog", "--typed-only", "--mute", "--no-history", "--transcript", plain + "/t.jsonl"],
            input: Data("Good morning.\n".utf8))
        #expect(output.status == 1)
        #expect(output.stderr == "parley: cannot write the transcript to \(plain)/t.jsonl: not a directory; "
                + "give another file with --transcript FILE, or --no-transcript\n")
        #expect(!output.stdout.contains("→"), "no turn was taken: \(output.stdout)")
    }

    @Test func typedOnlyWithoutAnAudioServerOffersMuteNotTheOptionAlreadyGiven() throws {
        let output = try ProcessRunner.parley(
            ["dialog", "--server", "unix:/nonexistent", "--typed-only", "--no-history", "--no-transcript"],
            input: Data("Good morning.\n".utf8))
        #expect(output.status == 0, "\(output.stderr)")
        let said = output.stdout + output.stderr
        #expect(said.contains("no PulseAudio server at unix:/nonexistent"), "\(said)")
        #expect(said.contains("or use --mute"), "\(said)")
        #expect(!said.contains("or use --typed-only"), "\(said)")
        #expect(output.stdout.contains("→ es-ES: "), "\(said)")
    }

    @Test func withoutAnAudioServerTheDialogueIsTypedOnlyAndSaysWhy() throws {
        let directory = try Fixtures.temporaryDirectory("parley-e2e")
        defer { try? FileManager.default.removeItem(at: directory) }
        let transcript = directory.appendingPathComponent("t.jsonl").path
        let english = "Where is the train station?"
        let output = try ProcessRunner.parley(
            ["dialog", "--server", "unix:/nonexistent", "--no-history", "--transcript", transcript],
            input: Data("\(english)\n".utf8), environment: ["XDG_STATE_HOME": directory.path])

        #expect(output.status == 0, "\(output.stderr)")
        let said = output.stdout + output.stderr
        #expect(said.contains("no PulseAudio server at unix:/nonexistent"), "\(said)")
        #expect(said.contains("or use --typed-only"), "\(said)")
        #expect(said.contains("typed only"), "\(said)")
        let translation = try apertium(english, "eng-spa")
        #expect(output.stdout.split(separator: "\n").contains { $0.hasPrefix("→ es-ES: \(translation)") })
        let written = try turns(transcript)
        #expect(written.count == 1 && written.first?["translation"] as? String == translation)
        #expect(written.first?["times"].flatMap { ($0 as? [String: Any])?["speak_start"] } is NSNull,
                "nothing was spoken")
    }
}
