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
        let listening = ContinuousClock.now
        try await session.startListening()
        await Harness.waitUntil(10) { !collector.arrivals.isEmpty }
        let firstAudio = try #require(collector.arrivals.first).time - listening
        let enqueued = ContinuousClock.now
        for chunk in Harness.tone(frequency: 1_000, seconds: 0.5) { try await session.enqueue(chunk) }
        try await Harness.within(10, "playback never drained") { try await session.drain() }
        let drained = ContinuousClock.now - enqueued
        await Harness.waitUntil(10) { Harness.toneWindows(collector.samples) >= 15 }  // the ear may trail the speaker
        let metrics = session.metrics
        await session.close()

        #expect(Harness.toneWindows(collector.samples) >= 15)  // 0.5 s of tone is 25 windows
        // Each latency lies within what the test saw from outside: activation within the wait for the
        // first chunk, the playback start within the time from the first chunk enqueued to the drain.
        let activation = try #require(metrics.activationLatency)
        #expect(activation > .zero && activation <= firstAudio, "\(activation) vs \(firstAudio)")
        let playbackStart = try #require(metrics.playbackStartLatency)
        #expect(playbackStart > .zero && playbackStart <= drained, "\(playbackStart) vs \(drained)")
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
        await collector.waitForRecording(recording, after: heardDuringPlayback, timeout: 10)
        await session.close()

        let samples = collector.samples
        #expect(Harness.toneWindows(samples) == 0)
        let alignment = Alignment(of: recording, in: samples)
        let heard = alignment.heardWhole(recording, in: samples)
        #expect(heard.holds, "\(heard.description)")
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
        let toneSeconds = 6.0
        let enqueued = ContinuousClock.now
        for chunk in Harness.tone(frequency: 1_000, seconds: toneSeconds) { try await session.enqueue(chunk) }
        await Harness.waitUntil(10) { Harness.toneWindows(heard.samples) >= 10 }
        #expect(Harness.toneWindows(heard.samples) >= 10, "the tone should be playing before the cancel")
        await session.cancelPlayback()
        let playingFor = ContinuousClock.now - enqueued
        try await Harness.within(2, "drain after cancel should return at once") { try await session.drain() }
        // The ear may lag behind the speaker on a loaded machine, so the bound is on how much
        // tone it hears, not on where in its stream the tone stops: a null sink plays in real
        // time, so no more tone than the time it was playing can reach the monitor.
        let silentTail = 16_000
        // Two 20 ms windows more than the tail checked below: the tone's cut-off end may fill part
        // of the window after its last full one, which the check skips.
        let waitedTail = silentTail + 640
        await Harness.waitUntil(10) {
            let samples = heard.samples
            return samples.count > waitedTail && AudioLevel(measuring: samples[(samples.count - waitedTail)...]).peak < 0.001
        }
        await session.close()
        await ear.close()

        let windows = Harness.windows(heard.samples).map { Harness.isTone($0, frequency: 1_000) }
        let first = try #require(windows.firstIndex(of: true))
        let last = try #require(windows.lastIndex(of: true))
        let heardTone = Duration.milliseconds((last - first + 1) * 20)
        #expect(heardTone <= playingFor + .milliseconds(500),
                "the ear heard \(heardTone) of tone, but the speaker played for \(playingFor) before the cancel")
        #expect(heardTone < .seconds(toneSeconds) - .milliseconds(500), "the tone played to its end")
        // The window after the last full one may hold the cut-off end of the tone.
        let samples = heard.samples
        let afterTone = min(samples.count, (last + 2) * 320)
        #expect(samples.count - afterTone >= silentTail, "the ear should hear silence after the cancel")
        #expect(AudioLevel(measuring: samples[afterTone...]).peak < 0.001, "nothing should play after the tone stops")
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
