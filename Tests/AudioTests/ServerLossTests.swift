import Audio
import Foundation
import ParleyCore
import Testing
import TestSupport

/// A server of our own is killed and restarted under a listening session.
@Suite struct ServerLossTests {
    /// Plays the test recording into the microphone sink of the server at ADDRESS.
    private func playRecording(address: String) throws -> Int32 {
        var environment = ProcessInfo.processInfo.environment
        environment["PULSE_SERVER"] = address
        return try ProcessRunner.run(["paplay", "--device=parley_mic", "--raw", "--rate=16000", "--channels=1",
                                      "--format=s16le", Harness.recordingPath], environment: environment).status
    }

    @Test func reportsTheLossReconnectsAndCaptureFlowsAgain() async throws {
        // A server of the test server's kind: scripts/pulse-server.sh or scripts/pipewire-server.sh.
        let directory = try Fixtures.temporaryDirectory("parley-restart")
        defer { try? FileManager.default.removeItem(at: directory) }
        let server = PrivateAudioServer(directory: directory.path)
        let address = try server.start()
        defer { try? server.stop() }
        let session = try await Harness.openSession(source: "parley_mic.monitor", sink: "parley_speaker", server: address)
        let recorder = EventRecorder(session)
        let collector = CaptureCollector(session)
        try await session.startListening()
        let recording = try Fixtures.rawSamples(Harness.recordingPath)

        #expect(try await Harness.offPool { try playRecording(address: address) } == 0)
        await collector.waitForRecording(recording, timeout: 10)
        let alignment = Alignment(of: recording, in: collector.samples)
        let heard = alignment.heardWhole(recording, in: collector.samples)
        #expect(heard.holds, "\(heard.description)")
        #expect(alignment.overlap >= recording.count * 99 / 100)

        try await Harness.offPool { try server.stop() }
        #expect(await recorder.waitFor(timeout: 10) { if case .serverLost = $0 { true } else { false } })
        #expect(!session.isConnected)
        await #expect(throws: AudioSessionError.serverLost) {
            try await session.enqueue(Harness.tone(frequency: 440, seconds: 0.05)[0])
        }

        try await Harness.offPool { try server.start() }
        #expect(await recorder.waitFor(timeout: 15) { $0 == .reconnected })
        #expect(session.isConnected)
        let before = collector.samples.count
        #expect(try await Harness.offPool { try playRecording(address: address) } == 0)
        await collector.waitForRecording(recording, after: before, timeout: 10)
        let afterReconnect = Array(collector.samples[before...])
        let realignment = Alignment(of: recording, in: afterReconnect)
        let heardAgain = realignment.heardWhole(recording, in: afterReconnect)
        #expect(heardAgain.holds, "\(heardAgain.description)")
        #expect(realignment.overlap >= recording.count * 99 / 100)
        #expect(session.metrics.reconnections == 1)
        await session.close()
    }
}
