import Foundation
import Testing
import TestSupport

/// The voice gives the same words of both languages their side, end to end: hands-free turns on
/// one shared microphone in an echo room, with Parley's defaults (canceller, barge-in). A is
/// eSpeak NG's man's voice in English, B its woman's in Spanish; each says two or three
/// sentences, then A says "no", the same word in both languages, where the turn order expects B.
/// No sentence of B's repeats a translation just played: the echo guard would take it for its echo.
@Suite("The voice gives the same words their side", .serialized)
struct VoiceSideDialogueTests {
    static let spoken: [(side: String, voice: String, text: String)] = [
        ("A", "en-us", "where is the train station"), ("B", "es-419+f2", "quiero un kilo de tomates"),
        ("A", "en-us", "the shop closes at nine tonight"), ("B", "es-419+f2", "necesito comprar leche y huevos"),
        ("A", "en-us", "I would like to buy a ticket"), ("A", "en-us", "no"),
    ]

    /// `text` in lower case without accents or punctuation.
    static func folded(_ text: String) -> String {
        text.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil)
            .split { !$0.isLetter && !$0.isNumber }.joined(separator: " ")
    }

    @Test("A's \"no\" after A's sentence is A's, by voice, though the turn order expects B")
    func sameWordsByVoice() throws {
        let directory = try Fixtures.temporaryDirectory("parley-voice-side")
        defer { try? FileManager.default.removeItem(at: directory) }
        let clips = try Self.spoken.enumerated().map { index, line in
            let path = directory.appendingPathComponent("\(index).wav").path
            let made = try ProcessRunner.run(["espeak-ng", "-v", line.voice, "-s", "150", "-w", path, line.text])
            try #require(made.status == 0, "\(made.stderr)")
            return path
        }
        let transcript = directory.appendingPathComponent("t.jsonl").path
        let (microphone, speaker) = (try LoopbackDevice(label: "vsmic"), try LoopbackDevice(label: "vsspk"))
        let room = try EchoRoom(from: speaker, to: microphone, latency: 40, decibels: -6)
        let run = try DialogueRun(["dialog", "en-US", "es-ES", "--turns", "auto", "--transcript", transcript, "--no-history",
                                   "--source", microphone.monitor, "--sink", speaker.sink],
                                  environment: ["XDG_STATE_HOME": directory.path])
        try run.waitForLine(timeout: 90) { $0.hasPrefix("A (en-US), your turn") }
        for (index, clip) in clips.enumerated() {
            // Each after the last translation was spoken, with a pause as in conversation, long
            // enough for the next request to be open on a loaded machine.
            Thread.sleep(forTimeInterval: 1.5)
            let played = try microphone.play(clip)
            try #require(played.status == 0, "\(played.stderr)")
            try run.waitForLine(count: index + 2, timeout: 90) { $0.contains(", your turn") }
        }
        #expect(try run.finish() == 0, "\(run.stderr)")
        withExtendedLifetime(room) {}

        let turns = try String(contentsOfFile: transcript, encoding: .utf8).split(separator: "\n")
            .map { try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]) }
        let decisions = run.lines.filter { $0.hasPrefix("heard side") || $0.contains(" en-US: ") || $0.contains(" es-ES: ") }
            .joined(separator: " | ")
        try #require(turns.count == clips.count, "\(decisions)")
        // The sentences, by their language: what teaches each side's voice.
        #expect(turns.dropLast().map { $0["side"] as? String } == Self.spoken.dropLast().map(\.side), "\(decisions)")
        // Read as the same word in both languages ("No." and "No."), only the voice can give it to
        // A: the turn order gives it to B. Read otherwise ("Oh" and "no", "Now" and "No."), the
        // language decides it, as it decides any other words.
        let answer = try #require(turns.last), assignment = try #require(answer["assignment"] as? [String: Any])
        let readings = [answer["text"] as? String ?? "", assignment["other_text"] as? String ?? ""].map(Self.folded)
        if readings[0] == readings[1] {
            #expect(answer["side"] as? String == "A" && readings[0] == "no", "\(readings): \(decisions)")
            #expect(assignment["by"] as? String == "voice", "\(assignment): \(decisions)")
            #expect(run.lines.contains { $0.hasPrefix("heard side A (en-US), by voice") }, "\(decisions)")
        } else {
            #expect(assignment["by"] as? String == "language", "\(assignment): \(decisions)")
        }
        #expect(turns.dropLast().allSatisfy { ($0["assignment"] as? [String: Any])?["by"] as? String == "language" },
                "\(decisions)")
    }
}
