import Audio
import Foundation
import ParleyCore
import Testing
import TestSupport

/// The session hears a human recording played into a null sink, sample for sample.
@Suite struct LoopbackTests {
    @Test func capturesAHumanRecordingPlayedIntoTheSource() async throws {
        let device = try LoopbackDevice(label: "mic")
        let session = try await Harness.openSession(source: device.monitor, sink: nil)
        let collector = CaptureCollector(session)
        try await session.startListening()
        let recording = try Fixtures.rawSamples(Fixtures.recording("goforward.raw"))
        let played = try await Harness.offPool { try device.play(Fixtures.recording("goforward.raw"), raw: true) }
        #expect(played.status == 0)
        await collector.waitForRecording(recording, timeout: 10)
        await session.close()

        let alignment = Alignment(of: recording, in: collector.samples)
        #expect(alignment.overlap >= recording.count * 99 / 100)
        let heard = alignment.heardWhole(recording, in: collector.samples)
        #expect(heard.holds, "\(heard.description)")
    }
}
