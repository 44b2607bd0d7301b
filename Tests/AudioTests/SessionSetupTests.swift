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
        let playing = Task { try await Harness.offPool { try device.play(Harness.recordingPath, raw: true) } }
        let meter = Task {  // redraws 20 times a second, as a REPL meter would
            var loudest = 0.0
            while !Task.isCancelled {
                loudest = max(loudest, session.inputLevel.peak)
                try? await Task.sleep(for: .milliseconds(50))
            }
            return max(loudest, session.inputLevel.peak)
        }
        #expect(try await playing.value.status == 0)
        try await Task.sleep(for: .milliseconds(300))
        meter.cancel()
        let loudest = await meter.value
        await session.close()
        let filePeak = AudioLevel(measuring: try Fixtures.rawSamples(Harness.recordingPath)).peak
        #expect(abs(loudest - filePeak) < 0.001)  // the loopback is sample-exact, so is the peak
    }
}
