import Audio
import Foundation
import ParleyCore
import Testing
import TestSupport

/// Playback through the session, heard on a null sink's monitor.
@Suite struct PlaybackTests {
    @Test func withoutTheEchoGateTheSessionHearsItsOwnPlayback() async throws {
        let device = try LoopbackDevice(label: "hear")
        let session = try await Harness.openSession(source: device.monitor, sink: device.sink) {
            $0.gatesCaptureDuringPlayback = false
        }
        let collector = CaptureCollector(session)
        try await session.startListening()
        for chunk in Harness.tone(frequency: 1_000, seconds: 0.5) { try await session.enqueue(chunk) }
        try await Harness.within(10, "playback never drained") { try await session.drain() }
        await collector.waitForSamples(16_000, timeout: 10)
        let metrics = session.metrics
        await session.close()

        #expect(Harness.toneWindows(collector.samples) >= 15)  // 0.5 s of tone is 25 windows
        #expect(metrics.playbackStartLatency != nil)
        #expect(metrics.activationLatency != nil)
    }

    @Test func audioPlayedWhileGatedNeverReachesTheConsumer() async throws {
        let device = try LoopbackDevice(label: "gate")
        let session = try await Harness.openSession(source: device.monitor, sink: device.sink)
        let collector = CaptureCollector(session)
        try await session.startListening()
        for chunk in Harness.tone(frequency: 1_000, seconds: 1) { try await session.enqueue(chunk) }
        try await Harness.within(10, "playback never drained") { try await session.drain() }
        let heardDuringPlayback = collector.samples.count
        let recording = try Fixtures.rawSamples(Harness.recordingPath)
        try await Harness.offPool { try device.play(Harness.recordingPath, raw: true) }
        await collector.waitForSamples(heardDuringPlayback + recording.count + 3_200, timeout: 10)
        await session.close()

        let samples = collector.samples
        #expect(Harness.toneWindows(samples) == 0)
        let alignment = Alignment(of: recording, in: samples)
        #expect(alignment.correlation > 0.98)
        #expect(alignment.overlap >= recording.count * 99 / 100)
    }

    @Test func cancelSilencesTheSpeakerAtOnce() async throws {
        let speaker = try LoopbackDevice(label: "speaker")
        let session = try await Harness.openSession(source: speaker.monitor, sink: speaker.sink)
        let ear = try await Harness.openSession(source: speaker.monitor, sink: speaker.sink) {
            $0.gatesCaptureDuringPlayback = false
        }
        let heard = CaptureCollector(ear)
        try await ear.startListening()
        for chunk in Harness.tone(frequency: 1_000, seconds: 4) { try await session.enqueue(chunk) }
        let deadline = ContinuousClock.now + .seconds(10)
        while Harness.toneWindows(heard.samples) < 10 && ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(20))
        }
        #expect(Harness.toneWindows(heard.samples) >= 10, "the tone should be playing before the cancel")
        await session.cancelPlayback()
        // The ear hears at least this much up to the cancel; positions, not arrival times,
        // so a consumer that is late under load cannot blur the bound.
        let atCancel = heard.samples.count
        try await Harness.within(2, "drain after cancel should return at once") { try await session.drain() }
        await heard.waitForSamples(atCancel + 24_000, timeout: 10)
        await session.close()
        await ear.close()

        let samples = heard.samples
        #expect(samples.count >= atCancel + 24_000, "the ear kept listening after the cancel")
        let afterCancel = Array(samples[min(samples.count, atCancel + 8_000)...])
        #expect(AudioLevel(measuring: afterCancel).peak < 0.001,
                "the speaker should be silent 500 ms after the cancel (the tone had 3 s left)")
    }

    @Test func refusesAChunkInAnotherFormat() async throws {
        let device = try LoopbackDevice(label: "format")
        let session = try await Harness.openSession(source: device.monitor, sink: device.sink)
        let chunk = Harness.tone(frequency: 440, seconds: 0.1, format: .recognition)[0]
        await #expect(throws: AudioSessionError.unsupportedPlaybackFormat(.recognition)) {
            try await session.enqueue(chunk)
        }
        await session.close()
    }
}
