import Foundation
import Testing
import TestSupport

/// The shared test helper itself: what `paplay` plays into the sink, `parec` hears on the monitor.
@Suite struct LoopbackDeviceTests {
    @Test func recordsWhatIsPlayedIntoTheSink() async throws {
        let device = try LoopbackDevice(label: "helper")
        let recording = try Fixtures.rawSamples(Harness.recordingPath)
        let (played, samples) = try await Harness.offPool {
            let capture = try device.startRecording()
            let played = try device.play(Harness.recordingPath, raw: true)
            return (played, try capture.stop())
        }
        #expect(played.status == 0)
        let alignment = Alignment(of: recording, in: samples)
        let heard = alignment.heardWhole(recording, in: samples)
        #expect(heard.holds, "\(heard.description)")
        #expect(alignment.overlap == recording.count)
    }
}
