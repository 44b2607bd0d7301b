import Foundation
import TestSupport
import TranslationReference
import Testing

/// `parley dialog` on the real engines and the private audio server, standard input a pipe.
@Suite("Dialogue end to end", .serialized)
struct DialogueEndToEndTests {
    /// A LibriVox sentence that the en-US model decodes well: "he might even have been made amiable himself".
    static let recording = Fixtures.recording("librivox/sense_and_sensibility_01_austen_64kb-0930.wav")

    /// What the engines make of the recording when they read it from the file.
    private func fileDecodings() throws -> [String] {
        let parley = try ProcessRunner.parley(["listen", "--recognizer", "pocketsphinx", "--file", Self.recording])
        let sphinx = try ProcessRunner.run(["pocketsphinx_continuous", "-infile", Self.recording, "-logfn", "/dev/null"])
        return [parley.stdout, sphinx.stdout].map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
            .filter { !$0.isEmpty }
    }

    /// `parley say --out` of `text` in `locale`, as 16 kHz samples (sox converts it, as the loopback records).
    private func saidSamples(_ text: String, locale: String, in directory: URL) throws -> [Int16] {
        let wav = directory.appendingPathComponent("say.wav").path, raw = directory.appendingPathComponent("say.raw").path
        let said = try ProcessRunner.parley(["say", "--locale", locale, "--out", wav, text])
        try #require(said.status == 0, "\(said.stderr)")
        let converted = try ProcessRunner.run(["sox", wav, "-r", "16000", "-c", "1", "-b", "16", "-e", "signed-integer", "-t", "raw", raw])
        try #require(converted.status == 0, "\(converted.stderr)")
        return try Fixtures.rawSamples(raw)
    }

    /// What `apertium -u PAIR` prints for `text`, after the clean-up the dialogue applies too.
    private func apertium(_ text: String, _ pair: String) throws -> String {
        try ApertiumReference.cleaned(pair, text)
    }

    private func turns(_ path: String) throws -> [[String: Any]] {
        try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n")
            .map { try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]) }
    }

    @Test func aSpokenTurnThenATypedTurnAreTranslatedSpokenAndWritten() throws {
        let directory = try Fixtures.temporaryDirectory("parley-e2e")
        defer { try? FileManager.default.removeItem(at: directory) }
        let transcript = directory.appendingPathComponent("t.jsonl").path
        let (microphone, speaker) = (try LoopbackDevice(label: "e2emic"), try LoopbackDevice(label: "e2espk"))
        let references = try fileDecodings()
        try #require(!references.isEmpty, "the recording decodes from the file")

        let run = try DialogueRun(["dialog", "en-US", "es-ES", "--recognizer", "pocketsphinx", "--transcript", transcript, "--no-history",
                                   "--source", microphone.monitor, "--sink", speaker.sink],
                                  environment: ["XDG_STATE_HOME": directory.path])
        try run.waitForLine { $0.hasPrefix("A (en-US), your turn") }
        let spanishSpeech = try speaker.startRecording()
        try microphone.play(Self.recording)
        try run.waitForLine { $0.hasPrefix("B (es-ES), your turn") }  // printed once speaking has drained
        let spanish = try spanishSpeech.stop()

        let englishSpeech = try speaker.startRecording()
        let typed = "¿Dónde está la estación de tren?"
        run.send(typed)
        try run.waitForLine(count: 2) { $0.hasPrefix("A (en-US), your turn") }
        let english = try englishSpeech.stop()
        let status = try run.finish()

        #expect(status == 0, "\(run.stderr)")
        let written = try turns(transcript)
        try #require(written.count == 2, "both turns are written:\n\(run.stdout)")
        let heard = try #require(written[0]["text"] as? String)
        #expect(written[0]["side"] as? String == "A" && written[0]["input"] as? String == "speech")
        let agreement = references.map { wordAgreement(heard, $0) }.max() ?? 0
        #expect(agreement >= 0.6, "heard '\(heard)', the file decodes as \(references)")
        let translation = try apertium(heard, "eng-spa")
        #expect(written[0]["translation"] as? String == translation)
        #expect(written[0]["target_locale"] as? String == "es-ES")
        let expected = audibleSeconds(try saidSamples(translation, locale: "es-ES", in: directory))
        let spoken = audibleSeconds(spanish)
        #expect(expected > 1 && abs(spoken - expected) <= expected * 0.2,
                "the speaker played \(spoken) s of speech; parley say makes \(expected) s of '\(translation)'")

        #expect(written[1]["side"] as? String == "B" && written[1]["input"] as? String == "typed")
        #expect(written[1]["text"] as? String == typed)
        #expect(written[1]["translation"] as? String == (try apertium(typed, "spa-eng")))
        #expect(written[1]["target_locale"] as? String == "en-US")
        #expect(audibleSeconds(english) > 0.5, "the English translation is heard on the speaker")
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
        #expect(said.contains("typed only"), "\(said)")
        let translation = try apertium(english, "eng-spa")
        #expect(output.stdout.split(separator: "\n").contains { $0.hasPrefix("→ es-ES: \(translation)") })
        let written = try turns(transcript)
        #expect(written.count == 1 && written.first?["translation"] as? String == translation)
        #expect(written.first?["times"].flatMap { ($0 as? [String: Any])?["speak_start"] } is NSNull,
                "nothing was spoken")
    }
}
