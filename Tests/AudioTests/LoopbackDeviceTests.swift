import Foundation
import Testing
import TestSupport

/// The shared test helper itself: what `paplay` plays into the sink, `parec` hears on the monitor.
@Suite struct LoopbackDeviceTests {
    @Test func recordsWhatIsPlayedIntoTheSink() async throws {
        let device = try LoopbackDevice(label: "helper")
        let recording = try Fixtures.rawSamples(Harness.recordingPath)
        let recorded = Task { try await Harness.offPool { try device.record(seconds: 8) } }
        try await Task.sleep(for: .milliseconds(1_500))
        let played = try await Harness.offPool { try device.play(Harness.recordingPath, raw: true) }
        #expect(played.status == 0)
        let samples = try await Harness.within(20, "parec did not stop") { try await recorded.value }
        let alignment = Alignment(of: recording, in: samples)
        #expect(alignment.correlation > 0.98)
        #expect(alignment.overlap >= recording.count * 9 / 10)  // parec may start late on a busy machine
    }
}
