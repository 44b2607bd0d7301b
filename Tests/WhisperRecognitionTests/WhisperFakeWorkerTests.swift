import ChildProcesses
import Foundation
import ParleyCore
@testable import WhisperRecognition
import TestSupport
import Testing

/// `WhisperWorker`'s restart and timeouts, on the fake worker (`Tests/Fixtures/fake-worker.py`,
/// a real Python process that speaks the worker's framing without a model).
@Suite("Whisper worker on the fake worker")
struct WhisperFakeWorkerTests {
    static let fake = Fixtures.repository.appendingPathComponent("Tests/Fixtures/fake-worker.py").path

    /// A worker whose Nth start runs the fake in `modes[N]` (the last mode for later starts), and its folder.
    static func worker(_ modes: [String]) throws -> (WhisperWorker, URL) {
        let folder = try Fixtures.temporaryDirectory("parley-fake-worker")
        try modes.joined(separator: "\n").write(to: folder.appendingPathComponent("mode"), atomically: true, encoding: .utf8)
        let launch = WhisperWorker.Launch(python: "/usr/bin/python3", script: fake, model: WhisperModelFolder(path: folder.path))
        return (WhisperWorker(launch: launch), folder)
    }

    static func transcribe(_ worker: WhisperWorker) async throws -> WhisperTranscription {
        try await worker.transcribe([Int16](repeating: 0, count: 8_000), language: "es", prompt: nil, beam: 1,
                                    alternatives: 0, words: false, padding: .zeroFrames(seconds: 1))
    }

    @Test("requests reach the fake framed as the worker reads them, and its answers come back")
    func framedAsTheWorkerReads() async throws {
        let (worker, folder) = try Self.worker(["answer"])
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect(try await worker.start() == ["en", "es"])
        let first = try await Self.transcribe(worker)
        let second = try await Self.transcribe(worker)
        #expect(first.text == "transcribe es consistent", "\(first)")
        #expect(second.request == first.request.map { $0 + 1 })
        #expect(await worker.starts == 1)
        await worker.shutdown()
    }

    @Test("a worker that dies in the middle of a request is started again and the request answered")
    func diedIsRestartedOnce() async throws {
        let (worker, folder) = try Self.worker(["die-after 1", "answer"])
        defer { try? FileManager.default.removeItem(at: folder) }
        _ = try await Self.transcribe(worker)
        let first = try #require(await worker.processIdentifier())
        let answer = try await Self.transcribe(worker)
        #expect(answer.text == "transcribe es consistent")
        #expect(await worker.starts == 2)
        #expect(await worker.processIdentifier() != first)
        #expect(!FileManager.default.fileExists(atPath: "/proc/\(first)"), "the dead worker was not reaped")
        await worker.shutdown()
    }

    @Test("a worker that dies again after its restart fails the request in one sentence")
    func diesTwice() async throws {
        let (worker, folder) = try Self.worker(["die-after 0"])
        defer { try? FileManager.default.removeItem(at: folder) }
        let error = await #expect(throws: RecognitionError.self) { try await Self.transcribe(worker) }
        #expect(error?.description == "the Whisper worker stopped (status 3): fake worker: dying after 0 requests, "
            + "again after a restart; the utterance was not recognized")
        #expect(await worker.starts == 2)
        await worker.shutdown()
    }

    @Test("a worker that stops answering is killed when the request's time is up, and replaced")
    func hungIsKilledAndReplaced() async throws {
        let (worker, folder) = try Self.worker(["hang", "answer"])
        defer { try? FileManager.default.removeItem(at: folder) }
        try await worker.start()
        let hung = try #require(await worker.processIdentifier())
        let answer = try await Self.transcribe(worker)  // waits out the timeout (20 s for half a second of audio)
        #expect(answer.text == "transcribe es consistent")
        #expect(await worker.starts == 2)
        #expect(try await Self.eventually { !FileManager.default.fileExists(atPath: "/proc/\(hung)") },
                "the hung worker was not killed and reaped")
        await worker.shutdown()
    }

    @Test("a worker that never says it is ready fails its start after the time allowed")
    func readyTimesOut() async throws {
        let process = try WhisperProcess(arguments: ["/usr/bin/python3", Self.fake, "--mode", "silent"])
        await #expect(throws: ChildProcessFailure(WhisperProcess.name, .timedOut(seconds: 1))) {
            try await process.ready(timeout: 1)
        }
        #expect(try await Self.eventually { !FileManager.default.fileExists(atPath: "/proc/\(process.pid)") })
    }

    @Test("a model the worker cannot load is reported with the worker's own sentence")
    func notReady() async throws {
        let (worker, folder) = try Self.worker(["not-ready"])
        defer { try? FileManager.default.removeItem(at: folder) }
        let error = await #expect(throws: RecognitionError.self) { try await worker.start() }
        #expect(error == .modelUnusable(path: folder.path, reason: "the fake model does not load"))
    }

    static func eventually(_ condition: () -> Bool) async throws -> Bool {
        for _ in 0..<200 where !condition() { try await Task.sleep(for: .milliseconds(50)) }
        return condition()
    }
}
