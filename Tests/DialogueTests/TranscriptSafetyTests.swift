import Dialogue
import Foundation
import ParleyCore
import Synchronization
import Testing

/// Transcript files Parley cannot own are refused at once, and a copy holds this
/// conversation's turns alone, whole lines only.
@Suite("Transcript safety")
struct TranscriptSafetyTests {
    private func temporaryFile(_ suffix: String = ".jsonl") -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("transcript-\(UUID().uuidString)\(suffix)").path
    }

    /// A FIFO nobody reads; removed by the caller.
    private func fifo() throws -> String {
        let path = temporaryFile(".fifo")
        guard mkfifo(path, 0o600) == 0 else { throw TranscriptError(path: path, reason: "mkfifo failed") }
        return path
    }

    /// Opens a `TranscriptWriter` at `path` on a thread of its own, waiting at most 30 s. An open
    /// still blocked then (a FIFO without a reader) is freed by opening a reader, and gives nil.
    private static func openBounded(_ path: String) -> Result<TranscriptWriter, any Error>? {
        let result = Mutex<Result<TranscriptWriter, any Error>?>(nil)
        let done = DispatchSemaphore(value: 0)
        Thread {
            let opened = Result { try TranscriptWriter(path: path) }
            result.withLock { $0 = opened }
            done.signal()
        }.start()
        guard done.wait(timeout: .now() + 30) == .timedOut else { return result.withLock { $0 } }
        let reader = open(path, O_RDONLY | O_NONBLOCK)
        done.wait()
        close(reader)
        return nil
    }

    private func transcriptErrors(_ rig: TestRig) -> [String] {
        rig.recorder.events.compactMap { if case let .error(text) = $0, text.contains("transcript") { text } else { nil } }
    }

    @Test("--transcript FIFO is refused in one sentence instead of waiting for a reader for ever")
    func aFIFOIsRefusedAtStart() throws {
        let path = try fifo()
        defer { unlink(path) }
        let opened = try #require(Self.openBounded(path), "opening the FIFO blocked")
        #expect(throws: TranscriptError.self) { try opened.get() }
        if case let .failure(error as TranscriptError) = opened {
            #expect(error.atStartDescription == "cannot write the transcript to \(path): it is a FIFO, not a regular file; "
                + "give another file with --transcript FILE, or --no-transcript")
        }
    }

    @Test("devices and directories are refused as transcripts, each in one sentence")
    func devicesAndDirectoriesAreRefused() throws {
        let kinds = ["/dev/null": "a character device", "/dev/zero": "a character device", "/dev/full": "a character device",
                     "/tmp": "a directory"]
        for (path, kind) in kinds {
            let opened = try #require(Self.openBounded(path))
            if case let .failure(error as TranscriptError) = opened {
                #expect(error.reason == "it is \(kind), not a regular file", "\(path)")
                #expect(!error.description.contains("\n"))
            } else {
                Issue.record("\(path) was taken as a transcript")
            }
        }
    }

    @Test(":transcript FIFO is refused in one sentence and the conversation goes on writing its own file",
          .timeLimit(.minutes(2)))
    func switchingToAFIFOIsRefused() async throws {
        let path = temporaryFile(), pipe = try fifo()
        defer { try? FileManager.default.removeItem(atPath: path); unlink(pipe) }
        let rig = TestRig(configure: { $0.usesMicrophone = false }, transcript: try TranscriptWriter(path: path))
        try await rig.start()
        await rig.coordinator.submitTyped("hello")
        try await rig.turns(1)
        let switching = Task { await rig.coordinator.switchTranscript(to: pipe) }
        let refused = (try? await rig.recorder.waitForMessage("it is a FIFO, not a regular file")) != nil
        if !refused {
            // Frees the blocked open; kept open so that later turns written there raise no SIGPIPE.
            _ = open(pipe, O_RDONLY | O_NONBLOCK)
            await switching.value
        }
        #expect(refused, "the switch blocked on the FIFO")
        await switching.value
        #expect(transcriptErrors(rig) == ["cannot write the transcript to \(pipe): it is a FIFO, not a regular file; "
            + "choose another file with :transcript FILE"])
        #expect(await rig.coordinator.transcriptPath == path)
        await rig.coordinator.submitTyped("hola")
        try await rig.turns(2)
        #expect(try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").count == 2)
    }

    @Test(":transcript FILE copies this conversation's turns alone, whole, when another conversation writes the same file")
    func twoConversationsOneFile() async throws {
        let shared = temporaryFile(), copy = temporaryFile()
        defer { [shared, copy].forEach { try? FileManager.default.removeItem(atPath: $0) } }
        let mine = TestRig(configure: { $0.usesMicrophone = false }, transcript: try TranscriptWriter(path: shared))
        let other = TestRig(configure: { $0.usesMicrophone = false }, transcript: try TranscriptWriter(path: shared))
        try await mine.start()
        try await other.start()
        for round in 1...4 {
            await mine.coordinator.submitTyped("mine \(round)")
            try await mine.turns(round)
            await other.coordinator.submitTyped("other \(round) " + String(repeating: "x", count: 40 * round))
            try await other.turns(round)
        }
        #expect(try String(contentsOfFile: shared, encoding: .utf8).split(separator: "\n").count == 8)
        await mine.coordinator.switchTranscript(to: copy)
        let lines = try String(contentsOfFile: copy, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.last == "", "the copy ends with a complete line")
        let texts = lines.dropLast().map { line in
            (try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])?["text"] as? String
        }
        #expect(texts == ["mine 1", "mine 2", "mine 3", "mine 4"])
        try await mine.recorder.waitForMessage("transcript: \(copy) (4 turns so far)")
    }
}
