import Foundation
import ProcessHarness
import Testing
import TestSupport

/// The product's main scene with Parley's defaults: two people at one machine, one microphone,
/// loudspeakers (a loopback from the speaker's monitor into the microphone, Parley's echo
/// canceller between them), natural speech. A reads three sentences with pauses of 0.6–1.0 s
/// between them. Turn by turn, each pause ends a turn, and A goes on before and over their own
/// translation; simultaneously, a pause ends a clause and the turn goes on.
/// Then B asks a question in Spanish. Before the microphone listened on in both languages,
/// A's next sentence was taken for B interrupting and read as Spanish; in simultaneous mode,
/// before a turn waited for the yield silence, it was B's turn, read as Spanish.
@Suite("One shared microphone, natural pauses", .serialized)
struct SharedMicrophoneTests {
    static let question = "dónde está la estación de tren"
    /// The two echo rooms each mode is heard in: 40 ms at −6 dB, and 100 ms at −12 dB.
    static let rooms = [(latency: 40, decibels: -6.0), (latency: 100, decibels: -12.0)]

    @Test("A going on over their own translation keeps the floor: every sentence is A's, nothing is interrupted, B's Spanish question afterwards is B's, and A's words read within 10 points of WER of stock Whisper's")
    func speakerGoesOn() throws {
        try bothRooms(options: [])
    }

    @Test("simultaneous, with the default yield silence: a pause shorter than it ends a clause, not the floor; A's sentences are one turn of A's, B's question afterwards is B's, and A's words read within 25 points of WER of stock Whisper's")
    func simultaneousKeepsTheFloor() throws {
        try bothRooms(options: ["--simultaneous"])
    }

    /// README's first example, `parley` with no argument at all, in the same scene on a server of
    /// its own whose defaults are the microphone and the speaker, its speaker heard by its
    /// microphone (40 ms, −6 dB): the transcript is the one parley keeps by default.
    @Test("README's first example, `parley` and nothing else: A's sentences are A's, nothing is interrupted, and B's question is B's")
    func readmeFirstExample() throws {
        let directory = try Fixtures.temporaryDirectory("parley-shared-mic-bare")
        defer { try? FileManager.default.removeItem(at: directory) }
        let server = PrivateAudioServer(directory: directory.appendingPathComponent("server").path)
        let address = try server.start()
        defer { try? server.stop() }
        let environment = ["PULSE_SERVER": address]
        let room = try RoomLoopback(from: "parley_speaker.monitor", to: "parley_mic", latency: 40, decibels: -6,
                                    environment: environment)
        defer { room.unload() }
        let state = directory.appendingPathComponent("state")
        let run = try DialogueRun([], environment: environment.merging(["XDG_STATE_HOME": state.path]) { $1 })
        try play(in: run, directory: directory) { file in
            try ProcessRunner.run(["paplay", "--device=parley_mic", file], environment: environment)
        }
        let transcripts = try FileManager.default.subpathsOfDirectory(atPath: state.path).filter { $0.hasSuffix(".jsonl") }
        try #require(transcripts.count == 1, "one transcript where parley keeps it by default: \(transcripts)")
        _ = try judge(run, transcript: state.appendingPathComponent(transcripts[0]).path,
                      label: "`parley` (40 ms, -6.0 dB)", options: [])
    }

    /// The scene in both rooms with `options`. Each room is judged on its own, and A's words of
    /// the two together (88) against stock Whisper's reading of the recordings (`Bounds`).
    private func bothRooms(options: [String]) throws {
        var (errors, stock, words) = (0, 0, 0)
        for room in Self.rooms {
            let heard = try scene(latency: room.latency, decibels: room.decibels, options: options)
            (errors, stock, words) = (errors + heard.errors, stock + heard.stock, words + heard.words)
        }
        let points = Bounds(options).pooled
        #expect(errors - stock <= words * points / 100, "A's words in both rooms: \(errors) errors in \(words), stock Whisper \(stock)")
    }

    /// How many points of WER over stock Whisper's A's words may read, in one room and pooled
    /// over both. Turn by turn the translation waits for the yield silence, so A's sentences are
    /// heard with nothing played over them: a room within 25 points (less than the passage's
    /// longest sentence), both within 10. Simultaneously, clauses are committed while the echo
    /// of the ones before them is heard (ducked): a room within 36 points, both within 25. The
    /// product's mark is 5 points; these bounds lie above the spread of runs, not at its edge.
    struct Bounds {
        var room: Int
        var pooled: Int

        init(_ options: [String]) {
            (room, pooled) = options.contains("--simultaneous") ? (36, 25) : (25, 10)
        }
    }

    /// A's three sentences with natural pauses, then B's question, on one microphone in an echo
    /// room of `latency` ms at `decibels`, with Parley's defaults and `options`; A's words' errors.
    private func scene(latency: Int, decibels: Double, options: [String] = []) throws -> Reading {
        let directory = try Fixtures.temporaryDirectory("parley-shared-mic")
        defer { try? FileManager.default.removeItem(at: directory) }
        let transcript = directory.appendingPathComponent("t.jsonl").path
        let (microphone, speaker) = (try LoopbackDevice(label: "shmic"), try LoopbackDevice(label: "shspk"))
        let room = try EchoRoom(from: speaker, to: microphone, latency: latency, decibels: decibels)
        let run = try DialogueRun(["dialog", "en-US", "es-ES", "--no-history", "--transcript", transcript,
                                   "--source", microphone.monitor, "--sink", speaker.sink] + options)
        try play(in: run, directory: directory) { try microphone.play($0) }
        withExtendedLifetime(room) {}
        return try judge(run, transcript: transcript, label: "\(options) (\(latency) ms, \(decibels) dB)", options: options)
    }

    /// Plays A's passage (`playing` plays a file into the microphone) once `run` gives A the turn,
    /// then B's question once it gives B the turn, and ends the conversation once A has it again.
    private func play(in run: DialogueRun, directory: URL, playing: (String) throws -> ProcessRunner.Output) throws {
        let file = try LongSpeechPassages.build(LongSpeechPassages.threeSentences, pauses: [0.8, 0.6, 1.0], in: directory)
        let question = directory.appendingPathComponent("question.wav").path
        let made = try ProcessRunner.run(["espeak-ng", "-v", "es-419", "-s", "140", "-w", question, Self.question])
        try #require(made.status == 0, "\(made.stderr)")
        try run.waitForLine(timeout: 90) { $0.hasPrefix("A (en-US), your turn") }
        let played = try playing(file)
        try #require(played.status == 0, "\(played.stderr)")
        try run.waitForLine(timeout: 120) { $0.hasPrefix("B (es-ES), your turn") }
        Thread.sleep(forTimeInterval: 0.5)
        _ = try playing(question)
        let turnsBefore = run.lines.filter { $0.hasPrefix("A (en-US), your turn") }.count
        // B's question, translated and spoken to A, gives A the floor again.
        try run.waitForLine(count: turnsBefore + 1, timeout: 120) { $0.hasPrefix("A (en-US), your turn") }
        #expect(try run.finish() == 0, "\(run.stderr)")
    }

    /// A's words' errors in one room, stock Whisper's in the same recordings, and the words.
    struct Reading {
        var errors: Int
        var stock: Int
        var words: Int
    }

    /// Expects of the conversation `run` wrote to `transcript` (`options` given to it): every
    /// sentence A's, no sentence of A's lost, nothing interrupted, and B's question B's.
    private func judge(_ run: DialogueRun, transcript: String, label: String, options: [String]) throws -> Reading {
        let passage = LongSpeechPassages.threeSentences
        let turns = try String(contentsOfFile: transcript, encoding: .utf8).split(separator: "\n")
            .map { try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]) }
        let decisions = run.lines.filter { line in
            ["heard side", "speaks over", "interrupt", "not an interruption", "A en-US:", "B es-ES:"].contains { line.contains($0) }
        }.joined(separator: " | ")
        try #require(turns.count >= 2, "\(decisions)")
        let sides = turns.map { $0["side"] as? String ?? "?" }
        #expect(sides.last == "B" && sides.dropLast().allSatisfy { $0 == "A" }, "sides \(sides): \(decisions)")
        if options.contains("--simultaneous") {
            // The pauses (0.6–1.0 s) are well below the yield silence (1.5 s): one turn.
            #expect(sides == ["A", "B"], "A's three sentences are one turn: \(decisions)")
        }
        #expect(!run.lines.contains { $0.contains("interrupted the translation") }, "\(decisions)")
        // Every stretch records who had the floor and why; one told by its language, how sure.
        let floors = turns.map { $0["assignment"] as? [String: Any] ?? [:] }
        #expect(floors.allSatisfy { ["turn", "language", "voice"].contains($0["by"] as? String ?? "") }, "\(floors)")
        #expect(floors.filter { $0["by"] as? String == "language" }.allSatisfy { $0["confidence"] is Double }, "\(floors)")
        let said = turns.dropLast().compactMap { $0["text"] as? String }.joined(separator: " ")
        let errors = SpokenWords.errors(said, reference: passage.reference)
        let stock = try passage.clips.map { try StockReadings.whisperErrors($0) }.reduce(0, +)
        let words = passage.reference.split(separator: " ").count
        print("shared microphone \(label): A's words \(errors) errors in \(words), stock \(stock): '\(said)'")
        // One room on its own, so a sentence lost under the echo fails whatever the other reads.
        #expect(errors - stock <= words * Bounds(options).room / 100, "'\(said)' for '\(passage.reference)': \(decisions)")
        let asked = try #require(turns.last?["text"] as? String)
        #expect(SpokenWords.sharedContent(asked, reference: Self.question, language: "es") * 3 >= 1, "B's question read '\(asked)'")
        return Reading(errors: errors, stock: stock, words: words)
    }
}
