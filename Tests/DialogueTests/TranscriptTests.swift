import Dialogue
import ParleyCoreFakes
import Foundation
import ParleyCore
import Testing

@Suite("Transcript lines")
struct TranscriptTests {
    private func temporaryFile() -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("transcript-\(UUID().uuidString).jsonl").path
    }

    @Test func aTypedTurnIsWrittenExactlyAsTheSpecSays() async throws {
        let path = temporaryFile()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let rig = TestRig(configure: { $0.usesMicrophone = false }, transcript: try TranscriptWriter(path: path),
                          clock: tickingClock(), unknownWords: ["Zaragoza"])
        try await rig.start()
        await rig.coordinator.submitTyped("To \"Zaragoza\"\tplease")
        try await rig.turns(1)
        let expected = #"{"turn":1,"side":"A","locale":"en-US","input":"typed","text":"To \"Zaragoza\"\tplease","#
            + #""confidence":null,"target_locale":"es-ES","translation":"[es-ES] To \"Zaragoza\"\tplease","#
            + #""unknown_words":[],"times":{"speech_start":null,"speech_end":null,"recognized":0.25,"#
            + #""translated":0.5,"speak_start":0.75,"speak_end":1}}"#
        #expect(try String(contentsOfFile: path, encoding: .utf8) == expected + "\n")
    }

    @Test func aSpokenTurnCarriesConfidenceSpeechTimesAndUnknownWords() async throws {
        let path = temporaryFile()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let rig = TestRig(transcript: try TranscriptWriter(path: path), clock: tickingClock(), unknownWords: ["Zaragoza"])
        try await rig.start()
        try await rig.speak([[.speechStarted(at: 0.5)],
                             [.speechEnded(at: 2.25), TestRig.final("train to Zaragoza", confidence: 0.6134)]])
        try await rig.turns(1)
        let line = try String(contentsOfFile: path, encoding: .utf8)
        // The request began at the first clock reading (0.25); speech times are relative to it.
        let expected = #"{"turn":1,"side":"A","locale":"en-US","input":"speech","text":"train to Zaragoza","#
            + #""confidence":0.613,"target_locale":"es-ES","translation":"[es-ES] train to Zaragoza","#
            + #""unknown_words":["Zaragoza"],"times":{"speech_start":0.75,"speech_end":2.5,"recognized":0.5,"#
            + #""translated":0.75,"speak_start":1,"speak_end":1.25},"assignment":{"by":"turn"}}"#
        #expect(line == expected + "\n")
    }

    @Test func linesAreAppendedOnePerTurnAndSwitchingFileCopiesThem() async throws {
        let first = temporaryFile(), second = temporaryFile()
        defer { [first, second].forEach { try? FileManager.default.removeItem(atPath: $0) } }
        let rig = TestRig(configure: { $0.usesMicrophone = false }, transcript: try TranscriptWriter(path: first))
        try await rig.start()
        await rig.coordinator.submitTyped("hello")
        await rig.coordinator.submitTyped("hola")
        try await rig.turns(2)
        await rig.coordinator.switchTranscript(to: second)
        await rig.coordinator.submitTyped("goodbye")
        try await rig.turns(3)
        let firstLines = try String(contentsOfFile: first, encoding: .utf8).split(separator: "\n")
        let secondLines = try String(contentsOfFile: second, encoding: .utf8).split(separator: "\n")
        #expect(firstLines.count == 2)
        #expect(secondLines.count == 3)
        #expect(Array(secondLines.prefix(2)) == firstLines)
        let decoded = try secondLines.map { try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
        #expect(decoded.map { $0?["turn"] as? Int } == [1, 2, 3])
        #expect(decoded.map { $0?["side"] as? String } == ["A", "B", "A"])
        #expect(decoded.map { $0?["text"] as? String } == ["hello", "hola", "goodbye"])
    }

    @Test func switchingCopiesOnlyThisSessionsTurns() async throws {
        let first = temporaryFile(), second = temporaryFile()
        defer { [first, second].forEach { try? FileManager.default.removeItem(atPath: $0) } }
        try #"{"turn":1,"text":"an earlier conversation"}"#.appending("\n").write(toFile: first, atomically: true, encoding: .utf8)
        let rig = TestRig(configure: { $0.usesMicrophone = false }, transcript: try TranscriptWriter(path: first))
        try await rig.start()
        await rig.coordinator.submitTyped("hello")
        try await rig.turns(1)
        await rig.coordinator.switchTranscript(to: second)
        let secondLines = try String(contentsOfFile: second, encoding: .utf8).split(separator: "\n")
        let firstLines = try String(contentsOfFile: first, encoding: .utf8).split(separator: "\n")
        #expect(firstLines.count == 2, "the session appended to the earlier file")
        #expect(secondLines == Array(firstLines.suffix(1)), "only this session's turn is copied")
    }

    @Test func withoutATranscriptFileSwitchingStillCopiesTheTurnsSoFar() async throws {
        let path = temporaryFile()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let rig = TestRig(configure: { $0.usesMicrophone = false })
        try await rig.start()
        await rig.coordinator.submitTyped("hello")
        await rig.coordinator.submitTyped("hola")
        try await rig.turns(2)
        await rig.coordinator.switchTranscript(to: path)
        let lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n")
        let texts = try lines.map { try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
            .map { $0?["text"] as? String }
        #expect(texts == ["hello", "hola"])
    }

    @Test func aPivotedTurnCarriesItsPivotsAndRouteBeforeTheTimes() {
        let entry = TranscriptEntry(turn: 1, side: .a, locale: LocaleTag("fr-FR")!, input: .typed, text: "Bonjour.",
                                    confidence: nil, targetLocale: TestRig.english, translation: "Greeting.",
                                    unknownWords: [], times: TurnTimes(), route: ["fr", "es", "en"])
        #expect(entry.jsonLine.contains(#""unknown_words":[],"pivots":["es"],"route":["fr","es","en"],"times":{"#))
        var direct = entry
        direct.route = []
        #expect(!direct.jsonLine.contains("pivots") && !direct.jsonLine.contains("route"))
    }

    @Test func jsonStringsEscapeControlCharactersAndKeepUnicode() {
        let entry = TranscriptEntry(turn: 2, side: .b, locale: TestRig.spanish, input: .typed, text: "¿Dónde\u{1}?\\",
                                    confidence: nil, targetLocale: TestRig.english, translation: "Where\n?",
                                    unknownWords: ["Dónde"], times: TurnTimes(recognized: 12.3456))
        #expect(entry.jsonLine == #"{"turn":2,"side":"B","locale":"es-ES","input":"typed","text":"¿Dónde\u0001?\\","#
            + #""confidence":null,"target_locale":"en-US","translation":"Where\n?","unknown_words":["Dónde"],"#
            + #""times":{"speech_start":null,"speech_end":null,"recognized":12.346,"translated":null,"#
            + #""speak_start":null,"speak_end":null}}"#)
    }

    @Test func theDefaultPathIsUnderTheStateDirectory() {
        let date = Date(timeIntervalSince1970: 1_790_000_000)
        #expect(TranscriptWriter.defaultPath(stateDirectory: "/home/x/.local/state/parley", date: date)
            == "/home/x/.local/state/parley/transcripts/2026-09-21T14-13-20.jsonl")
    }

    @Test func anUnwritableTranscriptIsAnError() {
        #expect(throws: TranscriptError.self) { try TranscriptWriter(path: "/proc/parley/transcript.jsonl") }
    }

    private func transcriptErrors(_ rig: TestRig) -> [String] {
        rig.recorder.events.compactMap { if case let .error(text) = $0, text.contains("transcript") { text } else { nil } }
    }

    @Test(.timeLimit(.minutes(1)))
    func aFailingFileIsReportedOnceAndTheTurnsAreKept() async throws {
        let path = temporaryFile()
        defer { try? FileManager.default.removeItem(atPath: path) }
        guard let disk = try FullDisk.make() else { Issue.record("cannot mount a tmpfs here (this test needs root)"); return }
        defer { disk.release() }
        let rig = TestRig(configure: { $0.usesMicrophone = false }, transcript: try TranscriptWriter(path: disk.transcript))
        try await rig.start()
        for text in ["hello", "hola", "goodbye"] { await rig.coordinator.submitTyped(text) }
        try await rig.turns(3)
        #expect(transcriptErrors(rig).count == 1)
        #expect(transcriptErrors(rig).first?.contains(disk.transcript) == true)
        await rig.coordinator.switchTranscript(to: path)
        let texts = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n")
            .map { try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }.map { $0?["text"] as? String }
        #expect(texts == ["hello", "hola", "goodbye"])
    }

    @Test(.timeLimit(.minutes(1)))
    func aDeviceIsRefusedWhenSwitchingAndTheTurnsStayWithTheConversation() async throws {
        let path = temporaryFile()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let rig = TestRig(configure: { $0.usesMicrophone = false })
        try await rig.start()
        await rig.coordinator.submitTyped("hello")
        try await rig.turns(1)
        await rig.coordinator.switchTranscript(to: "/dev/zero")
        await rig.coordinator.submitTyped("hola")
        try await rig.turns(2)
        await rig.coordinator.switchTranscript(to: path)
        let texts = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n")
            .map { try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }.map { $0?["text"] as? String }
        #expect(texts == ["hello", "hola"])
        #expect(transcriptErrors(rig) == ["cannot write the transcript to /dev/zero: it is a character device, not a regular file; "
            + "choose another file with :transcript FILE"])
    }

    /// A full disk: a 16 KiB tmpfs, an earlier conversation filling most of the
    /// transcript's first page, and a file taking the rest, so the next line fits only in part.
    @Test(.timeLimit(.minutes(1)))
    func aFullDiskLeavesNoPartialLineAndTheTurnsAreWrittenWhenSpaceReturns() async throws {
        let mount = FileManager.default.temporaryDirectory.appendingPathComponent("full-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: mount, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: mount) }
        guard FullDisk.run(["mount", "-t", "tmpfs", "-o", "size=16k", "tmpfs", mount]) else {
            Issue.record("cannot mount a tmpfs here (this test needs root)")
            return
        }
        defer { _ = FullDisk.run(["umount", mount]) }
        let path = mount + "/t.jsonl", filler = mount + "/filler", copy = temporaryFile()
        defer { try? FileManager.default.removeItem(atPath: copy) }
        let earlier = #"{"turn":1,"text":"an earlier conversation \#(String(repeating: "x", count: 3900))"}"# + "\n"
        try earlier.write(toFile: path, atomically: false, encoding: .utf8)
        let fill = open(filler, O_WRONLY | O_CREAT, 0o600)
        let page = [UInt8](repeating: 0x79, count: 4096)
        while write(fill, page, page.count) > 0 {}
        close(fill)

        let rig = TestRig(configure: { $0.usesMicrophone = false }, transcript: try TranscriptWriter(path: path))
        try await rig.start()
        await rig.coordinator.submitTyped("hello")
        await rig.coordinator.submitTyped("hola")
        try await rig.turns(2)
        #expect(try String(contentsOfFile: path, encoding: .utf8) == earlier, "no partial line is left")
        #expect(transcriptErrors(rig).count == 1, "the full disk is reported once")

        try FileManager.default.removeItem(atPath: filler)
        await rig.coordinator.submitTyped("goodbye")
        try await rig.turns(3)
        let lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.count == 5 && lines.last == "", "four complete lines")
        let texts = try lines.dropFirst().dropLast()
            .map { try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }.map { $0?["text"] as? String }
        #expect(texts == ["hello", "hola", "goodbye"])

        await rig.coordinator.switchTranscript(to: copy)
        #expect(try String(contentsOfFile: copy, encoding: .utf8).split(separator: "\n") == Array(lines.dropFirst().dropLast()))
    }

    @Test(.timeLimit(.minutes(1)))
    func linesStillWaitingWhenTheConversationEndsAreReported() async throws {
        guard let disk = try FullDisk.make() else { Issue.record("cannot mount a tmpfs here (this test needs root)"); return }
        defer { disk.release() }
        let rig = TestRig(configure: { $0.usesMicrophone = false }, transcript: try TranscriptWriter(path: disk.transcript))
        try await rig.start()
        await rig.coordinator.submitTyped("hello")
        try await rig.turns(1)
        await rig.coordinator.stop()
        try await rig.recorder.waitForMessage("1 turn could not be written to the transcript \(disk.transcript)")
    }
}
