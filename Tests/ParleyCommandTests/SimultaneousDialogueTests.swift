import Foundation
import ProcessHarness
import Testing
import TestSupport

/// Simultaneous interpretation on the real server with the real engines: A speaks a passage
/// of about 18 s with no half-second pause (four LibriVox sentences, `LongSpeechPassages`) and
/// B hears it in Spanish while A is still speaking.
@Suite("Simultaneous interpretation on the real server", .serialized)
struct SimultaneousDialogueTests {
    @Test("the first translation is heard 6 s before the passage ends; the turn is written once, its clauses are its text and each was spoken")
    func passage() throws {
        let passage = LongSpeechPassages.all[0]
        let directory = try Fixtures.temporaryDirectory("parley-simultaneous")
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = try LongSpeechPassages.build(passage, in: directory)
        let transcript = directory.appendingPathComponent("t.jsonl").path
        let (microphone, speaker) = (try LoopbackDevice(label: "simic"), try LoopbackDevice(label: "sispk"))
        let heard = try speaker.startRecording()
        let run = try DialogueRun(["dialog", "en-US", "es-ES", "--simultaneous", "--echo-cancel", "auto", "--no-history", "--transcript", transcript,
                                   "--source", microphone.monitor, "--sink", speaker.sink])
        try run.waitForLine(timeout: 90) { $0.hasPrefix("A (en-US), your turn") }
        let playStart = heard.samplesSoFar().count
        let played = try microphone.play(file)
        try #require(played.status == 0, "\(played.stderr)")
        try run.waitForLine(timeout: 120) { $0.hasPrefix("B (es-ES), your turn") }
        let samples = try heard.stop(after: 1.0)
        #expect(try run.finish() == 0, "\(run.stderr)")

        // What B heard, on the speaker's recording: the first translated sound, against the end
        // of the passage as it was played into the microphone (same server, same clock).
        let passageSeconds = Double(try Fixtures.rawSamples(Self.raw(file, in: directory)).count) / 16_000
        let passageEnd = playStart + Int(passageSeconds * 16_000)
        let firstSound = try #require(samples.indices.dropFirst(playStart).first { abs(Int(samples[$0])) > 1_000 },
                                      "nothing was spoken to B")
        let ahead = Double(passageEnd - firstSound) / 16_000
        #expect(ahead >= 6, "the first translated audio started \(ahead) s before the passage ended")

        // The turn, written once, with its clauses.
        let lines = try String(contentsOfFile: transcript, encoding: .utf8).split(separator: "\n")
        try #require(lines.count == 1, "one turn: \(lines)")
        let entry = try #require(try JSONSerialization.jsonObject(with: Data(lines[0].utf8)) as? [String: Any])
        let text = try #require(entry["text"] as? String)
        let clauses = try #require(entry["clauses"] as? [[String: Any]])
        #expect(clauses.count >= 3, "\(clauses)")
        #expect(clauses.compactMap { $0["text"] as? String }.joined(separator: " ") == text, "the clauses are the text, each word once")

        // Each clause was spoken to B: its speech has a start and an end, in order.
        let starts = clauses.compactMap { $0["speak_start"] as? Double }
        let ends = clauses.compactMap { $0["speak_end"] as? Double }
        #expect(starts.count == clauses.count && ends.count == clauses.count, "\(clauses)")
        #expect(zip(starts, ends).allSatisfy { $0 < $1 } && zip(ends, starts.dropFirst()).allSatisfy { $0 <= $1 + 0.001 },
                "clauses are spoken one after another: \(starts) \(ends)")
        // B heard speech for about as long as the clauses were spoken.
        let spoken = zip(starts, ends).map { $1 - $0 }.reduce(0, +)
        let audible = audibleSeconds(Array(samples[firstSound...]))
        #expect(audible > 0.5 * spoken && audible < spoken + 1, "audible \(audible) s of \(spoken) s spoken")
    }

    @Test("--simultaneous without echo cancellation is refused in one sentence, before anything starts")
    func refusedWithoutCancellation() throws {
        let output = try ProcessRunner.parley(["dialog", "--simultaneous", "--echo-cancel", "off", "--no-history", "--no-transcript"])
        #expect(output.status == 64)
        #expect(output.stderr.contains("--simultaneous needs echo cancellation") && output.stderr.split(separator: "\n").count <= 3,
                "\(output.stderr)")
        #expect(output.stdout.isEmpty)
    }

    /// `file` as 16 kHz raw samples, converted by sox.
    static func raw(_ file: String, in directory: URL) throws -> String {
        let raw = directory.appendingPathComponent("passage.raw").path
        let converted = try ProcessRunner.run(["sox", file, "-r", "16000", "-c", "1", "-b", "16", "-e", "signed-integer", "-t", "raw", raw])
        try #require(converted.status == 0, "\(converted.stderr)")
        return raw
    }
}
