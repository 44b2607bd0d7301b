import Audio
import Foundation
import ParleyCore
import Testing
import TestSupport

/// Another application's phone call corks our playback, and releases it.
@Suite struct InterruptionTests {
    @Test func aPhoneStreamOnTheSameSinkCorksOurPlaybackUntilItEnds() async throws {
        if try TestAudioServer.isPipeWire { return try await onPipeWireAPhoneStreamPlaysAlongsideOurs() }
        let (session, recorder, call) = try await musicThenCall()
        #expect(await recorder.waitFor(timeout: 10) { $0 == .interrupted })
        #expect(await corked("Parley cork test", becomes: true))
        #expect(try await call.value.status == 0)
        #expect(await recorder.waitFor(timeout: 10) { $0 == .interruptionEnded })
        #expect(await corked("Parley cork test", becomes: false))
        try await Harness.within(30, "playback should resume and drain") { try await session.drain() }
        await session.close()
        #expect(recorder.events.filter { $0 == .interrupted }.count == 1)
    }

    /// PipeWire has no module-role-cork: nothing corks our music-role playback when a phone
    /// stream starts on the same sink, no interruption is reported, and both play to the end.
    /// pipewire-pulse lists a stream as corked whenever its node is not running, which a busy
    /// machine shows for a moment (one look in ten in a CI run); a cork for the call would
    /// show at every look.
    private func onPipeWireAPhoneStreamPlaysAlongsideOurs() async throws {
        let load = try ProcessRunner.run(["pactl", "load-module", "module-role-cork"],
                                         environment: TestAudioServer.environment())
        #expect(load.status != 0, "module-role-cork loaded on PipeWire: \(load.stdout)")
        let (session, recorder, call) = try await musicThenCall()
        // While the call plays, our stream stays listed and uncorked.
        var states: [Bool?] = []
        for _ in 0..<10 {
            try await Task.sleep(for: .milliseconds(400))
            states.append(try? corkedState(of: "Parley cork test"))
        }
        #expect(states.filter { $0 == false }.count >= 8, "corked states during the call: \(states)")
        #expect(try await call.value.status == 0)
        try await Harness.within(30, "playback should drain") { try await session.drain() }
        await session.close()
        #expect(!recorder.events.contains(.interrupted), "\(recorder.events)")
    }

    /// Our session playing 12 s of music-role tone on a fresh sink, then, 300 ms in, another
    /// application's phone-role call on the same sink (module-role-cork corks music for a phone
    /// stream where it exists).
    private func musicThenCall() async throws -> (AudioSession, EventRecorder, Task<ProcessRunner.Output, any Error>) {
        let device = try LoopbackDevice(label: "cork")
        let session = try await Harness.openSession(source: device.monitor, sink: device.sink) {
            $0.playbackRole = "music"
            $0.captureRole = "production"
            $0.applicationName = "Parley cork test"
        }
        let recorder = EventRecorder(session)
        for chunk in Harness.tone(frequency: 1_000, seconds: 12) { try await session.enqueue(chunk) }
        try await Task.sleep(for: .milliseconds(300))
        let callPath = try Self.callRecording()
        let call = Task {
            defer { try? FileManager.default.removeItem(atPath: (callPath as NSString).deletingLastPathComponent) }
            return try await Harness.offPool {
                try ProcessRunner.run(["paplay", "--device=\(device.sink)", "--property=media.role=phone",
                                       "--raw", "--rate=16000", "--channels=1", "--format=s16le", callPath],
                                      environment: TestAudioServer.environment())
            }
        }
        return (session, recorder, call)
    }

    /// The test recording three times over: an 8 s call, long enough to observe on a busy machine.
    private static func callRecording() throws -> String {
        let recording: Data = try Data(contentsOf: URL(fileURLWithPath: Harness.recordingPath))
        var call = Data()
        for _ in 0..<3 { call.append(recording) }
        let url: URL = try Fixtures.temporaryDirectory("parley-call").appendingPathComponent("call.raw")
        try call.write(to: url)
        return url.path
    }

    /// Whether the server comes to list our playback stream as corked (or not) within 10 s:
    /// our cork request and `pactl`'s query race on a busy machine.
    private func corked(_ application: String, becomes expected: Bool) async -> Bool {
        let deadline: ContinuousClock.Instant = .now + .seconds(10)
        while ContinuousClock.now < deadline {
            let state: Bool? = try? corkedState(of: application)
            if state == expected { return true }
            try? await Task.sleep(for: .milliseconds(50))
        }
        return false
    }

    /// Whether the server lists our playback stream as corked (`pactl list sink-inputs`).
    private func corkedState(of application: String) throws -> Bool? {
        let output = try ProcessRunner.run(["pactl", "list", "sink-inputs"], environment: TestAudioServer.environment())
        for block in output.stdout.components(separatedBy: "Sink Input #")
        where block.contains("application.name = \"\(application)\"") {
            if block.contains("Corked: yes") { return true }
            if block.contains("Corked: no") { return false }
        }
        return nil
    }
}
