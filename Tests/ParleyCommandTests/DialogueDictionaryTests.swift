import Foundation
import TestSupport
import Testing

/// `:dict` inside a running conversation, on the real eSpeak NG and the private audio server.
@Suite("Dictionary edits in a conversation", .serialized)
struct DialogueDictionaryTests {
    /// A pronunciation several times longer than eSpeak NG's own "go" (1.2 s against 0.3 s).
    static let longPronunciation = "ˌɪntɚˌnæʃənəlaɪˈzeɪʃən"

    @Test(":dict add changes how the next spoken line sounds, without a restart")
    func addedWordIsSpokenTheNewWay() throws {
        let directory = try Fixtures.temporaryDirectory("parley-dialog-dict")
        defer { try? FileManager.default.removeItem(at: directory) }
        let dictionaries = directory.appendingPathComponent("dictionaries").path
        try FileManager.default.createDirectory(atPath: dictionaries, withIntermediateDirectories: true)
        let speaker = try LoopbackDevice(label: "dictspk")
        let run = try DialogueRun(["dialog", "en-US", "es-ES", "--typed-only", "--sink", speaker.sink,
                                   "--dictionaries", dictionaries, "--no-history", "--no-transcript"],
                                  environment: ["XDG_STATE_HOME": directory.path])
        try run.waitForLine(timeout: 90) { $0.hasPrefix("A (en-US), your turn") }

        let before = try spokenSeconds(of: run, count: 1, on: speaker)
        run.send(":dict add en go \(Self.longPronunciation)")
        try run.waitForLine { $0.hasPrefix("go\t") && $0.contains("en.dict") }
        let after = try spokenSeconds(of: run, count: 2, on: speaker)
        #expect(try run.finish() == 0, "\(run.stderr)")

        let plain = audibleSeconds(try said("go", dictionaries: nil, in: directory))
        let edited = audibleSeconds(try said("go", dictionaries: dictionaries, in: directory))
        #expect(edited > plain + 0.5, "the entry makes 'go' longer: \(plain) s → \(edited) s")
        #expect(abs(before - plain) <= plain * 0.3 + 0.05, "before the edit the dialogue said 'go' in \(before) s, parley say in \(plain) s")
        #expect(abs(after - edited) <= edited * 0.2, "after the edit the dialogue said 'go' in \(after) s, parley say --dictionaries in \(edited) s")
    }

    /// `:say go` for the `count`-th time, recorded from the speaker: its audible seconds.
    /// The recording runs until well after the line (at most 1.3 s) has played.
    private func spokenSeconds(of run: DialogueRun, count: Int, on speaker: LoopbackDevice) throws -> Double {
        let recording = try speaker.startRecording()
        run.send(":say go")
        try run.waitForLine(count: count) { $0.hasPrefix("speaking to A") }
        Thread.sleep(forTimeInterval: 4)
        return audibleSeconds(try recording.stop())
    }

    /// `parley say --out` of `text` in en-US (with `dictionaries` when given), as 16 kHz samples.
    private func said(_ text: String, dictionaries: String?, in directory: URL) throws -> [Int16] {
        let wav = directory.appendingPathComponent("say.wav").path, raw = directory.appendingPathComponent("say.raw").path
        let extra = dictionaries.map { ["--dictionaries", $0] } ?? []
        let output = try ProcessRunner.parley(["say", "--locale", "en-US", "--out", wav] + extra + [text])
        try #require(output.status == 0, "\(output.stderr)")
        let converted = try ProcessRunner.run(["sox", wav, "-r", "16000", "-c", "1", "-b", "16", "-e", "signed-integer", "-t", "raw", raw])
        try #require(converted.status == 0, "\(converted.stderr)")
        return try Fixtures.rawSamples(raw)
    }
}
