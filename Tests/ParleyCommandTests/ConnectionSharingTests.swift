import Foundation
import TestSupport
import Testing

/// `parley room` and `parley dialog` with a headset each open one connection per server,
/// however its address is written: the test server left out (the default) for one person
/// and written with `/./` in its socket's path for the other is one server.
@Suite("One connection per server", .serialized)
struct ConnectionSharingTests {
    /// The test server's address written another way: `unix:/…/pulse/./native`.
    private func sameServerWrittenAnotherWay() throws -> String {
        let address = try TestAudioServer.address
        try #require(address.hasPrefix("unix:/"), "the test server is on a socket: \(address)")
        let path = String(address.dropFirst("unix:".count)) as NSString
        return "unix:\(path.deletingLastPathComponent)/./\(path.lastPathComponent)"
    }

    @Test("a room's two parties on the test server, one by default and one by a second spelling of its address, share one connection")
    func room() throws {
        let server = try sameServerWrittenAnotherWay()
        let (microphoneA, speakerA) = (try LoopbackDevice(label: "c1mic"), try LoopbackDevice(label: "c1spk"))
        let (microphoneB, speakerB) = (try LoopbackDevice(label: "c2mic"), try LoopbackDevice(label: "c2spk"))
        let run = try DialogueRun(["room", "en-US,source=\(microphoneA.monitor),sink=\(speakerA.sink)",
                                   "fr-FR,source=\(microphoneB.monitor),sink=\(speakerB.sink),server=\(server)",
                                   "--no-transcript", "--no-history"])
        try run.waitForLine(timeout: 90) { $0.hasPrefix("the room is open") }
        #expect(try connections(of: run.processIdentifier) == 1, "\(run.stdout)")
        #expect(try run.finish() == 0, "\(run.stderr)")
    }

    @Test("a dialogue whose side B names the test server by a second spelling of its address shares side A's connection")
    func dialogue() throws {
        let server = try sameServerWrittenAnotherWay()
        let (microphoneA, speakerA) = (try LoopbackDevice(label: "c3mic"), try LoopbackDevice(label: "c3spk"))
        let (microphoneB, speakerB) = (try LoopbackDevice(label: "c4mic"), try LoopbackDevice(label: "c4spk"))
        let run = try DialogueRun(["dialog", "en-US", "es-ES", "--typed-only",
                                   "--source", microphoneA.monitor, "--sink", speakerA.sink,
                                   "--source-b", microphoneB.monitor, "--sink-b", speakerB.sink, "--server-b", server,
                                   "--no-transcript", "--no-history"])
        try run.waitForLine(timeout: 90) { $0.hasPrefix("A (en-US), your turn") }
        #expect(try connections(of: run.processIdentifier) == 1, "\(run.stdout)")
        #expect(try run.finish() == 0, "\(run.stderr)")
    }
}
