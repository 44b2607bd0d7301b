import Foundation
import Synchronization
import ProcessHarness
import Testing
import TestSupport
import TranslationReference

/// `parley dialog` with a microphone and speaker per side (`--source-b`, `--sink-b`,
/// `--server-b`, or a locale written as a room party), on real servers with the real engines.
@Suite("A microphone and speaker per side", .serialized)
struct SeparateDevicesDialogueTests {
    /// A's and B's devices, each a null sink of its own for the microphone and for the speaker.
    private struct Headsets {
        let microphoneA: LoopbackDevice, speakerA: LoopbackDevice, microphoneB: LoopbackDevice, speakerB: LoopbackDevice

        init() throws {
            (microphoneA, speakerA) = (try LoopbackDevice(label: "hamic"), try LoopbackDevice(label: "haspk"))
            (microphoneB, speakerB) = (try LoopbackDevice(label: "hbmic"), try LoopbackDevice(label: "hbspk"))
        }
    }

    /// `text` in eSpeak NG's `locale`, as a file to play into a microphone.
    private func said(_ text: String, locale: String, in directory: URL) throws -> String {
        let path = directory.appendingPathComponent("said-\(UUID().uuidString.prefix(8)).wav").path
        let output = try ProcessRunner.parley(["say", "--locale", locale, "--out", path, text])
        try #require(output.status == 0, "\(output.stderr)")
        return path
    }

    /// The text after `prefix` on the last line that starts with it, without its notes.
    private func text(after prefix: String, in run: DialogueRun) throws -> String {
        let line = try #require(run.lines.last { $0.hasPrefix(prefix) }, "no line '\(prefix)…' in:\n\(run.stdout)")
        return String(line.dropFirst(prefix.count))
            .replacingOccurrences(of: #"( \((heard|typed|through |unknown: )[^)]*\))+$"#, with: "", options: .regularExpression)
    }

    /// Echo cancellers this `parley` loaded on the test server.
    private func cancellers(of run: DialogueRun) throws -> [String] {
        let modules = try ProcessRunner.run(["pactl", "list", "modules", "short"], environment: TestAudioServer.environment())
        return modules.stdout.split(separator: "\n").map(String.init).filter { $0.contains(".\(run.processIdentifier).") && $0.contains("parley_ec") }
    }

    @Test("simultaneous with a headset each and no echo canceller: A's passage is heard in Spanish on B's speaker while A speaks, B's microphone is not A's, and B's answer is heard on A's speaker")
    func simultaneousWithoutCanceller() throws {
        let passage = LongSpeechPassages.all[0]
        let directory = try Fixtures.temporaryDirectory("parley-headsets")
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = try LongSpeechPassages.build(passage, in: directory)
        let transcript = directory.appendingPathComponent("t.jsonl").path
        let devices = try Headsets()
        let (heardByA, heardByB) = (try devices.speakerA.startRecording(), try devices.speakerB.startRecording())
        let run = try DialogueRun(["dialog", "en-US", "es-ES", "--simultaneous", "--echo-cancel", "off",
                                   "--source", devices.microphoneA.monitor, "--sink", devices.speakerA.sink,
                                   "--source-b", devices.microphoneB.monitor, "--sink-b", devices.speakerB.sink,
                                   "--no-history", "--transcript", transcript])
        try run.waitForLine(timeout: 90) { $0.hasPrefix("A (en-US), your turn") }
        #expect(try cancellers(of: run).isEmpty, "no echo canceller with a headset each")
        #expect(try connections(of: run.processIdentifier) == 1, "the two sides share one connection to their server")

        // While A speaks, B says something into B's own microphone: it is nobody's turn there.
        let spanishAside = try said("La estación está a la izquierda.", locale: "es-ES", in: directory)
        let playStart = heardByB.samplesSoFar().count
        // The aside's playback is the premise of "not heard": one that failed fails the test.
        let asidePlayed = Mutex<Result<ProcessRunner.Output, any Error>?>(nil)
        let aside = DispatchWorkItem { asidePlayed.withLock { $0 = Result { try devices.microphoneB.play(spanishAside) } } }
        DispatchQueue.global().asyncAfter(deadline: .now() + 4, execute: aside)
        let played = try devices.microphoneA.play(file)
        try #require(played.status == 0, "\(played.stderr)")
        aside.wait()
        let asideOutput = try #require(asidePlayed.withLock { $0 }, "the aside was not played").get()
        try #require(asideOutput.status == 0, "the aside did not play: \(asideOutput.stderr)")
        try run.waitForLine(timeout: 120) { $0.hasPrefix("B (es-ES), your turn") }
        let duringA = heardByA.samplesSoFar()

        // B answers on B's microphone; A hears it in English on A's speaker, B hears nothing of it.
        let answer = "Quiero un café con leche."
        let answerStart = heardByB.samplesSoFar().count
        try devices.microphoneB.play(try said(answer, locale: "es-ES", in: directory))
        try run.waitForLine(count: 2, timeout: 120) { $0.hasPrefix("A (en-US), your turn") }
        let (toA, toB) = (try heardByA.stop(after: HeardSpeech.tail), try heardByB.stop(after: HeardSpeech.tail))
        #expect(try run.finish() == 0, "\(run.stderr)")

        // A's turn: interpreted while A spoke, on B's speaker only.
        let passageSeconds = Double(try Fixtures.rawSamples(SimultaneousDialogueTests.raw(file, in: directory)).count) / 16_000
        let firstSound = try #require(toB.indices.dropFirst(playStart).first { abs(Int(toB[$0])) > 1_000 }, "nothing was spoken to B")
        let ahead = Double(playStart + Int(passageSeconds * 16_000) - firstSound) / 16_000
        #expect(ahead >= 6, "the first translated audio started \(ahead) s before the passage ended")
        #expect(audibleSeconds(duringA) == 0, "A's speaker is silent while A's turn is interpreted")
        let lines = try String(contentsOfFile: transcript, encoding: .utf8).split(separator: "\n")
        try #require(lines.count == 2, "two turns: \(lines)")
        let first = try #require(try JSONSerialization.jsonObject(with: Data(lines[0].utf8)) as? [String: Any])
        let text = try #require(first["text"] as? String)
        #expect((first["clauses"] as? [Any])?.count ?? 0 >= 2, "\(first)")
        let words = passage.reference.split(separator: " ").count
        #expect(SpokenWords.errors(text, reference: passage.reference) <= words / 10, "'\(text)' for '\(passage.reference)'")
        #expect(!["estación", "izquierda"].contains { text.lowercased().contains($0) }, "B's microphone was heard in A's turn: '\(text)'")

        // B's turn: heard on B's microphone, its translation on A's speaker.
        let second = try #require(try JSONSerialization.jsonObject(with: Data(lines[1].utf8)) as? [String: Any])
        #expect(second["side"] as? String == "B")
        let heard = try #require(second["text"] as? String)
        #expect(["café", "leche"].allSatisfy { heard.lowercased().contains($0) }, "\(heard)")
        let translation = try #require(second["translation"] as? String)
        // On a loaded machine the answer's decode can leave A behind, and its clause is sped up.
        let speeds = ((second["clauses"] as? [[String: Any]]) ?? []).compactMap { $0["speed"] as? Double }
        try expectSpeech(Array(toA[duringA.count...]), saying: translation, locale: "en-US", in: directory,
                         speeds: (speeds.min() ?? 1)...(speeds.max() ?? 1))
        #expect(audibleSeconds(Array(toB[answerStart...])) == 0, "B hears nothing of its own answer")
    }

    @Test("side B on a second server over TCP, written as a room party: A's typed line is heard there in Spanish; its server lost, B types; back, B is heard again")
    func sideBOnAnotherServer() throws {
        let directory = try Fixtures.temporaryDirectory("parley-side-b")
        defer { try? FileManager.default.removeItem(at: directory) }
        let remote = try RoomTests.RemoteServer(directory: directory.appendingPathComponent("remote"))
        let (microphone, speaker) = (try LoopbackDevice(label: "sbmic"), try LoopbackDevice(label: "sbspk"))
        let run = try DialogueRun(["dialog", "en-US,source=\(microphone.monitor),sink=\(speaker.sink)", remote.party,
                                   "--no-history", "--no-transcript"])
        try run.waitForLine(timeout: 90) { $0.hasPrefix("A (en-US), your turn") }
        let heardInSpanish = try remote.record()
        run.send("Where is the train station?")
        try run.waitForLine(timeout: 90) { $0.hasPrefix("B (es-ES), your turn") }
        let spanish = try heardInSpanish.stop(after: HeardSpeech.tail)
        let toSpanish = try text(after: "→ es-ES: ", in: run)
        #expect(toSpanish == (try ApertiumReference.cleaned("eng-spa", "Where is the train station?")))
        try expectSpeech(spanish, saying: toSpanish, locale: "es-ES", in: directory)

        // B speaks on the other server's microphone; A hears English on this one.
        let heardInEnglish = try speaker.startRecording()
        try remote.play(try said("Quiero un café con leche.", locale: "es-ES", in: directory))
        try run.waitForLine(count: 2, timeout: 90) { $0.hasPrefix("A (en-US), your turn") }
        let english = try heardInEnglish.stop(after: HeardSpeech.tail)
        let heard = try text(after: "B es-ES: ", in: run)
        #expect(["café", "leche"].allSatisfy { heard.lowercased().contains($0) }, "\(heard)")
        try expectSpeech(english, saying: try text(after: "→ en-US: ", in: run), locale: "en-US", in: directory)

        // The second server goes: side B types until it is back; side A is still heard.
        try remote.server.stop()
        try run.waitForLine(timeout: 30) { $0.contains("side B's audio failed: ") }
        run.send("Thank you very much.")
        try run.waitForLine(timeout: 60) { $0.hasPrefix("B (es-ES), your turn") && $0.contains("audio server is gone") }
        try remote.restart()
        try run.waitForLine(timeout: 60) { $0.contains("side B's audio server is back") }
        Thread.sleep(forTimeInterval: 0.5)
        try remote.play(try said("Muchas gracias.", locale: "es-ES", in: directory))
        try run.waitForLine(count: 3, timeout: 90) { $0.hasPrefix("A (en-US), your turn") }
        #expect(try run.finish() == 0, "\(run.stderr)")
        #expect(run.lines.contains { $0.hasPrefix("B es-ES: ") && $0.lowercased().contains("gracias") }, "\(run.stdout)")
    }
}

/// `parley dialog`'s refusals of devices per side, before any audio is opened: one sentence each, exit 64.
@Suite struct SeparateDevicesRefusalTests {
    @Test("a plan of devices per side that cannot work is refused in one sentence that says why",
          arguments: [(["--sink-b", "b"], "sides A and B would share one microphone (the default source of the default server)"),
                      (["--source", "m", "--source-b", "m"], "sides A and B would share one microphone (m of the default server)"),
                      (["--source-b", "m", "--turns", "auto"], "--turns auto tells the sides apart by their language on one microphone"),
                      (["--source", "a", "--source-b", "b", "en-US,source=c", "es-ES"], "side A's microphone is given twice"),
                      (["en-US", "es-ES,speaker=b"], "side B 'es-ES,speaker=b': 'speaker' is not a key"),
                      (["--source-b", "b", "--server-b", "no where"], "--server-b 'no where' is not a server address"),
                      (["en-US", "es-ES,source=b,cookie=/nonexistent-cookie"], "side B's cookie /nonexistent-cookie does not exist")])
    func refused(arguments: [String], expected: String) throws {
        let output = try ProcessRunner.parley(["dialog"] + arguments + ["--no-history", "--no-transcript"])
        #expect(output.status == 64)
        #expect(output.stderr.contains(expected) && output.stderr.split(separator: "\n").count <= 3, "\(output.stderr)")
        #expect(output.stdout.isEmpty)
    }

    @Test("side B's own server unreachable at the start ends the conversation in one sentence, exit 1")
    func sideBUnreachable() throws {
        let output = try ProcessRunner.parley(["dialog", "--source-b", TestAudioServer.speakerSource, "--server-b", "tcp:127.0.0.1:1",
                                               "--echo-cancel", "on", "--no-history", "--no-transcript"])
        #expect(output.status == 1)
        #expect(output.stderr.contains("side B cannot be reached on tcp:127.0.0.1:1: ") && output.stderr.split(separator: "\n").count <= 3,
                "\(output.stderr)")
    }
}
