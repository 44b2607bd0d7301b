import Foundation
import Testing
import TestSupport
import TranslationReference

/// A dialogue whose recognition and side A's voice come from real Wyoming servers
/// (wyoming-faster-whisper and wyoming-piper, started on 127.0.0.1), with Parley's defaults.
@Suite("Wyoming dialogue", .serialized)
struct WyomingDialogueTests {
    static let recordingName = "librivox/sense_and_sensibility_01_austen_64kb-0930.wav"

    /// A speaks a LibriVox sentence, recognized by the server and spoken to B by eSpeak NG; B
    /// types a Spanish line, spoken to A in the server's voice. What A's speaker played is
    /// recognized back (through the recognition server) as the English translation.
    @Test func recognizedAndSpokenByWyomingServers() throws {
        let (recognition, voice) = (try WyomingTestServer(), try WyomingTestServer(voice: true))
        defer {
            recognition.stop()
            voice.stop()
        }
        let directory = try Fixtures.temporaryDirectory("parley-wyoming")
        defer { try? FileManager.default.removeItem(at: directory) }
        let transcript = directory.appendingPathComponent("t.jsonl").path
        let (microphone, speaker) = (try LoopbackDevice(label: "wymic"), try LoopbackDevice(label: "wyspk"))
        let run = try DialogueRun(["dialog", "en-US,voice=\(voice.joe)", "es-ES", "--recognizer", recognition.address,
                                   "--transcript", transcript, "--no-history",
                                   "--source", microphone.monitor, "--sink", speaker.sink],
                                  environment: ["XDG_STATE_HOME": directory.path, "PARLEY_LOG": "debug"])
        try run.waitForLine(timeout: 90) { $0.hasPrefix("A (en-US), your turn") }
        Thread.sleep(forTimeInterval: 0.5)
        try microphone.play(Fixtures.recording(Self.recordingName))
        try run.waitForLine(timeout: 90) { $0.hasPrefix("B (es-ES), your turn") }

        let english = try speaker.startRecording()
        let typed = "Quiero un café con leche."
        run.send(typed)
        try run.waitForLine(count: 2, timeout: 90) { $0.hasPrefix("A (en-US), your turn") }
        let played = try english.stop(after: HeardSpeech.tail)
        let status = try run.finish()
        #expect(status == 0, "\(run.stderr)")

        let written = try String(contentsOfFile: transcript, encoding: .utf8).split(separator: "\n")
            .map { try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]) }
        try #require(written.count == 2, "both turns are written:\n\(run.stdout)\n\(run.stderr)")
        let heard = try #require(written[0]["text"] as? String)
        let errors = SpokenWords.errors(heard, reference: try StockReadings.transcript(Self.recordingName))
        let stock = try StockReadings.whisperErrors(Self.recordingName)
        #expect(errors <= stock + 1, "A's turn read '\(heard)': \(errors) errors, stock Whisper makes \(stock)")
        #expect(written[0]["translation"] as? String == (try ApertiumReference.cleaned("eng-spa", heard)))

        let translation = try ApertiumReference.cleaned("spa-eng", typed)
        #expect(written[1]["translation"] as? String == translation)
        let path = directory.appendingPathComponent("played.raw")
        try played.withUnsafeBufferPointer { Data(buffer: $0) }.write(to: path)
        let backText = try Self.readBack(path.path, recognition)
        // The reference: the same voice's own file of the translation (`parley say --out`), read
        // back the same way; Piper's synthesis varies from run to run, and the speaker may add a
        // word error of its own to it.
        let reference = directory.appendingPathComponent("said.wav").path
        let said = try ProcessRunner.parley(["say", "--voice", voice.joe, "--out", reference, translation])
        try #require(said.status == 0, "\(said.stderr)")
        let saidText = try Self.readBack(reference, recognition)
        let (live, file) = (SpokenWords.errors(backText, reference: translation), SpokenWords.errors(saidText, reference: translation))
        #expect(live <= file + 1,
                "A's speaker played '\(backText)' (read back through the server) for '\(translation)'; the voice's own file reads '\(saidText)'")
        #expect(audibleSeconds(played) > 0.8, "the voice is heard on A's speaker")
        #expect(run.stderr.contains("\(voice.joe): first audio"), "the server's voice spoke the translation to A")
        #expect(run.stderr.contains("\(recognition.address): "), "the recognition server heard A")
    }

    /// `parley listen` of the file at `path`, in English, through the recognition server.
    static func readBack(_ path: String, _ server: WyomingTestServer) throws -> String {
        let output = try ProcessRunner.parley(["listen", "--recognizer", server.address, "--locale", "en-US", "--file", path])
        return output.stdout.split(separator: "\n").joined(separator: " ")
    }
}
