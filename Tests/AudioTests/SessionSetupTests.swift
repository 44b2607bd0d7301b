import Audio
import Foundation
import ParleyCore
import Testing
import TestSupport

/// Opening, devices, and the errors a person sees.
@Suite struct SessionSetupTests {
    @Test func noServerIsAClearError() async throws {
        let session = AudioSession(options: AudioSessionOptions(server: "unix:/nonexistent/parley/native"),
                                   logger: Harness.logger)
        await #expect(throws: AudioServerUnavailable.self) { try await session.open() }
        await #expect(throws: AudioSessionError.notOpen) { try await session.startListening() }
    }

    @Test func aMissingSinkIsNamed() async throws {
        let session = AudioSession(options: AudioSessionOptions(server: try TestAudioServer.address,
                                                                sink: "parley_no_such_sink"),
                                   logger: Harness.logger)
        await #expect(throws: AudioSessionError.deviceNotFound(kind: "sink", name: "parley_no_such_sink")) {
            try await session.open()
        }
    }

    @Test func listsTheSinksAndSourcesOfTheServer() async throws {
        let device = try LoopbackDevice(label: "list")
        let session = try await Harness.openSession(source: device.monitor, sink: device.sink)
        let devices = try await session.devices()
        await session.close()
        let sink = devices.first { $0.kind == .sink && $0.name == device.sink }
        #expect(sink?.sampleRate == 16_000)
        #expect(devices.contains { $0.kind == .source && $0.name == device.monitor && $0.isMonitor })
        #expect(devices.first { $0.kind == .sink && $0.isDefault }?.name == TestAudioServer.speakerSink)
        let withoutSession = try await AudioSession.devices(server: TestAudioServer.address, logger: Harness.logger)
        #expect(withoutSession.contains { $0.name == device.sink })
    }

    @Test func aStalledConsumerLosesTheOldestAudioWithACountedEvent() async throws {
        let device = try LoopbackDevice(label: "stall")
        let session = try await Harness.openSession(source: device.monitor, sink: device.sink) {
            $0.captureBufferSeconds = 0.1
        }
        let recorder = EventRecorder(session)
        try await session.startListening()
        try await Task.sleep(for: .milliseconds(600))  // nobody consumes: 0.6 s into a 0.1 s buffer
        var iterator = session.capturedChunks.makeAsyncIterator()
        _ = await iterator.next()
        #expect(await recorder.waitFor(timeout: 10) {
            if case let .captureOverrun(dropped) = $0 { dropped > 0 } else { false }
        })
        #expect(session.metrics.droppedCaptureChunks > 0)
        await session.close()
    }

    @Test func theInputLevelMeterMissesNoPeak() async throws {
        let device = try LoopbackDevice(label: "level")
        let session = try await Harness.openSession(source: device.monitor, sink: device.sink)
        try await Task.sleep(for: .milliseconds(100))
        #expect(session.inputLevel.peak == 0)  // a null sink with nothing playing is silent
        let filePeak = AudioLevel(measuring: try Fixtures.rawSamples(Harness.recordingPath)).peak
        let playing = Task { try await Harness.offPool { try device.play(Harness.recordingPath, raw: true) } }
        // Redraws 20 times a second, as a REPL meter would, until it has seen the file's peak: the
        // capture may trail the playback on a busy machine. A meter that showed only the latest
        // fragment would see the loudest moment pass between two redraws and wait out its deadline.
        // PipeWire's graph runs at 48 kHz: the 16 kHz loopback is resampled twice there, which
        // moves a peak by about a thousandth; PulseAudio's loopback is sample-exact.
        let tolerance = try TestAudioServer.isPipeWire ? 0.005 : 0.001
        var loudest = 0.0
        let deadline = ContinuousClock.now + .seconds(10)
        while abs(loudest - filePeak) >= tolerance && ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(50))
            loudest = max(loudest, session.inputLevel.peak)
        }
        #expect(try await playing.value.status == 0)
        await session.close()
        #expect(abs(loudest - filePeak) < tolerance, "loudest \(loudest), the file's peak \(filePeak)")
    }
}
