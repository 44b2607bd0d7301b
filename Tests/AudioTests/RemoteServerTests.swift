import Audio
import Foundation
import Testing
import TestSupport

/// A second private PulseAudio server reached over TCP on 127.0.0.1, as a party on another
/// machine is: cookie authentication only, never anonymous.
@Suite struct RemoteServerTests {
    @Test("a server over TCP answers a client with its cookie and refuses one without it")
    func cookieOnly() throws {
        let directory = try Fixtures.temporaryDirectory("parley-remote")
        defer { try? FileManager.default.removeItem(at: directory) }
        let server = PrivateAudioServer(directory: directory.path)
        // A port of the dynamic range; a second one if another process holds the first.
        let (address, cookie) = try (try? server.startOverTCP(port: Int.random(in: 49_152...60_000)))
            ?? server.startOverTCP(port: Int.random(in: 60_001...65_000))
        defer { try? server.stop() }
        #expect(address.hasPrefix("tcp:127.0.0.1:"))

        let answered = try pactlInfo(server: address, cookie: cookie)
        #expect(answered.status == 0, "\(answered.stderr)")
        #expect(answered.stdout.contains("Default Sink: parley_speaker"))

        let stranger = directory.appendingPathComponent("other-cookie").path
        try Data((0..<256).map { _ in UInt8.random(in: 0...255) }).write(to: URL(fileURLWithPath: stranger))
        let refused = try pactlInfo(server: address, cookie: stranger)
        #expect(refused.status != 0)
        #expect(refused.stderr.contains("Access denied"), "\(refused.stderr)")
    }

    @Test("a session shows the cookie its options name, and one without the server's cookie is refused in one sentence")
    func sessionCookie() async throws {
        let directory = try Fixtures.temporaryDirectory("parley-remote-session")
        defer { try? FileManager.default.removeItem(at: directory) }
        let server = PrivateAudioServer(directory: directory.path)
        let (address, cookie) = try (try? server.startOverTCP(port: Int.random(in: 49_152...60_000)))
            ?? server.startOverTCP(port: Int.random(in: 60_001...65_000))
        defer { try? server.stop() }
        let variable = ProcessInfo.processInfo.environment["PULSE_COOKIE"]

        let session = try await Harness.openSession(source: "parley_mic.monitor", sink: "parley_speaker", server: address) {
            $0.cookie = try? PulseCookie(readingFile: cookie)
        }
        #expect(session.isConnected)
        try await session.enqueue(Harness.tone(frequency: 440, seconds: 0.1)[0])
        await session.close()
        #expect(ProcessInfo.processInfo.environment["PULSE_COOKIE"] == variable, "the variable is put back")

        let stranger = directory.appendingPathComponent("other-cookie").path
        try Data((0..<256).map { _ in UInt8.random(in: 0...255) }).write(to: URL(fileURLWithPath: stranger))
        do {
            let refused = try await Harness.openSession(source: nil, sink: nil, server: address) {
                $0.cookie = try? PulseCookie(readingFile: stranger)
            }
            await refused.close()
            Issue.record("a session with another cookie was let in")
        } catch let error as AudioServerUnavailable {
            #expect("\(error)".contains("Access denied"), "\(error)")
            #expect(!"\(error)".contains("\n"))
        }
    }

    private func pactlInfo(server: String, cookie: String) throws -> ProcessRunner.Output {
        var environment = ProcessInfo.processInfo.environment
        environment["PULSE_COOKIE"] = cookie
        environment["PULSE_SERVER"] = nil
        return try ProcessRunner.run(["pactl", "-s", server, "info"], environment: environment)
    }
}
