import Audio
import Foundation
import ParleyCore
import Testing
import TestSupport

/// Several sessions on one `AudioConnection`: one client of the server, each session with its
/// own streams on its own devices, closing and losing the server as sessions of their own do.
@Suite struct SharedConnectionTests {
    /// Clients of the server at `address` whose application name is `name`.
    private func clients(named name: String, address: String) throws -> Int {
        var environment = ProcessInfo.processInfo.environment
        environment["PULSE_SERVER"] = address
        let listed = try ProcessRunner.run(["pactl", "list", "clients"], environment: environment)
        return listed.stdout.split(separator: "\n").filter {
            $0.trimmingCharacters(in: .whitespaces) == "application.name = \"\(name)\""
        }.count
    }

    private func session(_ source: String, _ sink: String, on connection: AudioConnection) async throws -> AudioSession {
        let session = AudioSession(options: AudioSessionOptions(source: source, sink: sink), connection: connection,
                                   logger: Harness.logger)
        try await session.open()
        return session
    }

    /// Plays `chunks` on `session` and waits until the server has played them.
    private func play(_ chunks: [PCMChunk], on session: AudioSession) async throws {
        for chunk in chunks { try await session.enqueue(chunk) }
        try await session.drain()
    }

    @Test("two sessions on one connection are one client; each hears its own microphone and plays on its own speaker; one closed, the other goes on")
    func twoSessionsOneClient() async throws {
        let address = try TestAudioServer.address
        let name = "Parley shared \(UUID().uuidString.prefix(8))"
        let connection = AudioConnection(server: address, applicationName: name)
        let (microphone1, speaker1) = (try LoopbackDevice(label: "sc1mic"), try LoopbackDevice(label: "sc1spk"))
        let (microphone2, speaker2) = (try LoopbackDevice(label: "sc2mic"), try LoopbackDevice(label: "sc2spk"))
        let first = try await session(microphone1.monitor, speaker1.sink, on: connection)
        let second = try await session(microphone2.monitor, speaker2.sink, on: connection)
        #expect(try clients(named: name, address: address) == 1, "one connection for both sessions")

        // Each plays on its own speaker only.
        let (heard1, heard2) = (try speaker1.startRecording(), try speaker2.startRecording())
        try await play(Harness.tone(frequency: 440, seconds: 0.6), on: first)
        try await play(Harness.tone(frequency: 660, seconds: 0.6), on: second)
        let (samples1, samples2) = try await Harness.offPool { (try heard1.stop(after: 0.3), try heard2.stop(after: 0.3)) }
        let windows1 = Harness.windows(samples1), windows2 = Harness.windows(samples2)
        #expect(windows1.filter { Harness.isTone($0, frequency: 440) }.count >= 10, "the first session's tone on its speaker")
        #expect(windows2.filter { Harness.isTone($0, frequency: 660) }.count >= 10, "the second session's tone on its speaker")
        #expect(!windows1.contains { Harness.isTone($0, frequency: 660) } && !windows2.contains { Harness.isTone($0, frequency: 440) },
                "neither speaker plays the other session's tone")

        // Each hears its own microphone only.
        let (collector1, collector2) = (CaptureCollector(first), CaptureCollector(second))
        try await first.startListening()
        try await second.startListening()
        let recording = try Fixtures.rawSamples(Harness.recordingPath)
        #expect(try await Harness.offPool { try microphone1.play(Harness.recordingPath, raw: true) }.status == 0)
        await collector1.waitForRecording(recording, timeout: 10)
        let heard = Alignment(of: recording, in: collector1.samples).heardWhole(recording, in: collector1.samples)
        #expect(heard.holds, "\(heard.description)")
        #expect(audible(collector2.samples) == 0, "the second session heard the first one's microphone")

        // The first closed: the connection stays for the second, which still plays.
        await first.close()
        #expect(try clients(named: name, address: address) == 1)
        #expect(second.isConnected)
        let heardAgain = try speaker2.startRecording()
        try await play(Harness.tone(frequency: 660, seconds: 0.4), on: second)
        let again = try await Harness.offPool { try heardAgain.stop(after: 0.3) }
        #expect(Harness.windows(again).filter { Harness.isTone($0, frequency: 660) }.count >= 5)
        await second.close()
        #expect(try clients(named: name, address: address) == 0, "the connection went with its last session")
    }

    @Test("the server lost under two sessions on one connection: both report it, and both come back on one new connection")
    func serverLostAndBack() async throws {
        let directory = try Fixtures.temporaryDirectory("parley-shared")
        defer { try? FileManager.default.removeItem(at: directory) }
        let server = PrivateAudioServer(directory: directory.path)
        let address = try server.start()
        defer { try? server.stop() }
        let name = "Parley shared \(UUID().uuidString.prefix(8))"
        let connection = AudioConnection(server: address, applicationName: name)
        let first = try await session("parley_mic.monitor", "parley_speaker", on: connection)
        let second = try await session("parley_speaker.monitor", "parley_mic", on: connection)
        let (events1, events2) = (EventRecorder(first), EventRecorder(second))
        #expect(try clients(named: name, address: address) == 1)

        try await Harness.offPool { try server.stop() }
        #expect(await events1.waitFor(timeout: 10) { if case .serverLost = $0 { true } else { false } })
        #expect(await events2.waitFor(timeout: 10) { if case .serverLost = $0 { true } else { false } })
        try await Harness.offPool { try server.start() }
        #expect(await events1.waitFor(timeout: 20) { $0 == .reconnected })
        #expect(await events2.waitFor(timeout: 20) { $0 == .reconnected })
        #expect(first.isConnected && second.isConnected)
        #expect(try clients(named: name, address: address) == 1, "one new connection for both")

        // Capture flows again on the first session's microphone.
        let collector = CaptureCollector(first)
        try await first.startListening()
        let recording = try Fixtures.rawSamples(Harness.recordingPath)
        var environment = ProcessInfo.processInfo.environment
        environment["PULSE_SERVER"] = address
        let serverEnvironment = environment
        let played = try await Harness.offPool {
            try ProcessRunner.run(["paplay", "--device=parley_mic", "--raw", "--rate=16000", "--channels=1", "--format=s16le",
                                   Harness.recordingPath], environment: serverEnvironment)
        }
        #expect(played.status == 0)
        await collector.waitForRecording(recording, timeout: 10)
        let heard = Alignment(of: recording, in: collector.samples).heardWhole(recording, in: collector.samples)
        #expect(heard.holds, "\(heard.description)")
        await first.close()
        await second.close()
    }

    /// Seconds of `samples` (16 kHz) louder than a quiet room.
    private func audible(_ samples: [Int16]) -> Double {
        Double(stride(from: 0, to: samples.count, by: 160).filter { start in
            samples[start..<min(start + 160, samples.count)].contains { abs(Int32($0)) > 300 }
        }.count) / 100
    }
}
