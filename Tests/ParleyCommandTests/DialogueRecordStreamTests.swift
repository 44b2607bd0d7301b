import Foundation
import Synchronization
import Testing
import TestSupport

/// A conversation records through one stream from its first turn to its last: typed turns,
/// a spoken turn and the speech played in between neither close nor replace it. With the
/// defaults that stream records the echo canceller's source, and the echo guard's stream on the
/// microphone behind it, and the speaker's monitor recorded as the echo's reference
/// (`EchoSubtraction`), are just as steady.
@Suite("One record stream per conversation", .serialized)
struct DialogueRecordStreamTests {
    @Test func typedAndSpokenTurnsShareOneRecordStream() throws {
        let directory = try Fixtures.temporaryDirectory("parley-stream")
        defer { try? FileManager.default.removeItem(at: directory) }
        let transcript = directory.appendingPathComponent("t.jsonl").path
        let (microphone, speaker) = (try LoopbackDevice(label: "rsmic"), try LoopbackDevice(label: "rsspk"))
        let run = try DialogueRun(["dialog", "en-US", "es-ES", "--recognizer", "pocketsphinx", "--transcript", transcript,
                                   "--no-history", "--source", microphone.monitor, "--sink", speaker.sink],
                                  environment: ["XDG_STATE_HOME": directory.path])
        let aTurn: (String) -> Bool = { $0.hasPrefix("A (en-US), your turn") }
        let bTurn: (String) -> Bool = { $0.hasPrefix("B (es-ES), your turn") }
        try run.waitForLine(where: aTurn)

        // From the first prompt on, the server's record streams of this parley, every 100 ms.
        let sampler = RecordStreamSampler(processIdentifier: run.processIdentifier)
        sampler.start()
        run.send("Good morning.")
        try run.waitForLine(where: bTurn)
        sampler.mark("typed A")
        run.send("¿Dónde está la estación de tren?")
        try run.waitForLine(count: 2, where: aTurn)
        sampler.mark("typed B")
        try microphone.play(DialogueEndToEndTests.recording)
        try run.waitForLine(count: 2, where: bTurn)
        sampler.mark("spoken A")
        run.send("Muchas gracias.")
        try run.waitForLine(count: 3, where: aTurn)
        sampler.mark("typed B")
        let samples = sampler.stop()
        let status = try run.finish()

        #expect(status == 0, "\(run.stderr)")
        let turns = try String(contentsOfFile: transcript, encoding: .utf8).split(separator: "\n")
            .map { try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]) }
        #expect(turns.map { $0["input"] as? String } == ["typed", "typed", "speech", "typed"], "\(run.stdout)")
        #expect(samples.count >= 8, "the sampler read the server at least at every turn: \(samples)")
        #expect(samples.allSatisfy { $0.indices.count == 1 }, "one record stream at every reading: \(samples)")
        let indices = Set(samples.flatMap(\.indices))
        #expect(indices.count == 1, "the record stream's index never changes: \(samples)")
        #expect(samples.allSatisfy { $0.guards.count == 1 }, "one echo guard stream at every reading: \(samples)")
        #expect(Set(samples.flatMap(\.guards)).count == 1, "the echo guard's stream never changes: \(samples)")
        #expect(samples.allSatisfy { $0.references.count == 1 }, "one monitor of the speaker at every reading: \(samples)")
        #expect(Set(samples.flatMap(\.references)).count == 1, "the monitor's stream never changes: \(samples)")
    }
}

/// Reads `pactl list source-outputs` on the test server in the background and keeps, at each
/// reading, the indices of the record streams that belong to one process: its capture, and
/// the echo guard's stream and the speaker's monitor apart.
final class RecordStreamSampler: Sendable {
    struct Sample: Sendable, CustomStringConvertible {
        var label: String
        var indices: [Int]
        var guards: [Int]
        var references: [Int]
        var description: String { "\(label): \(indices), guard \(guards), reference \(references)" }
    }

    private let processIdentifier: Int32
    private let state = Mutex((samples: [Sample](), running: false, label: "start"))
    private let finished = DispatchSemaphore(value: 0)

    init(processIdentifier: Int32) {
        self.processIdentifier = processIdentifier
    }

    func start() {
        state.withLock { $0.running = true }
        Thread.detachNewThread { [self] in
            while state.withLock({ $0.running }) {
                sample()
                Thread.sleep(forTimeInterval: 0.1)
            }
            finished.signal()
        }
    }

    /// Takes a reading now, labelled with what just happened (readings until the next label carry it).
    func mark(_ label: String) {
        state.withLock { $0.label = label }
        sample()
    }

    /// Stops the background readings and returns every reading.
    func stop() -> [Sample] {
        state.withLock { $0.running = false }
        finished.wait()
        return state.withLock { $0.samples }
    }

    private func sample() {
        guard let environment = try? TestAudioServer.environment(),
              let output = try? ProcessRunner.run(["pactl", "list", "source-outputs"], environment: environment, timeout: 10),
              output.status == 0 else { return }
        let streams = output.stdout.components(separatedBy: "Source Output #").dropFirst()
            .filter { $0.contains("application.process.id = \"\(processIdentifier)\"") }
        let guardName = "media.name = \"Parley echo guard\"", referenceName = "media.name = \"Parley echo reference\""
        let index = { (stream: String) in Int(stream.prefix { $0.isNumber }) }
        let indices = streams.filter { !$0.contains(guardName) && !$0.contains(referenceName) }.compactMap(index)
        let guards = streams.filter { $0.contains(guardName) }.compactMap(index)
        let references = streams.filter { $0.contains(referenceName) }.compactMap(index)
        state.withLock { $0.samples.append(Sample(label: $0.label, indices: indices, guards: guards, references: references)) }
    }
}
