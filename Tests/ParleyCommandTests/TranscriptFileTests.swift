import Foundation
import Testing
import TestSupport

/// `parley dialog --transcript FILE` with a file Parley cannot own.
@Suite struct TranscriptFileTests {
    @Test("--transcript FIFO is refused in one sentence, exit 1, instead of waiting for a reader for ever")
    func aFIFOIsRefused() throws {
        let directory = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let fifo = directory.appendingPathComponent("transcript.fifo").path
        try #require(mkfifo(fifo, 0o600) == 0)
        var environment = try TestAudioServer.environment()
        environment["NO_COLOR"] = "1"
        // A hang is stopped after 60 s and throws: a failure, not a test run that waits for ever.
        let output = try ProcessRunner.run([ProcessRunner.parleyBinary, "dialog", "--transcript", fifo],
                                           input: Data("hello\n".utf8), environment: environment, timeout: 60)
        #expect(output.status == 1)
        #expect(output.stderr == "parley: cannot write the transcript to \(fifo): it is a FIFO, not a regular file; "
            + "give another file with --transcript FILE, or --no-transcript\n")
    }
}
