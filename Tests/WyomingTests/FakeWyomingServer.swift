import Foundation
import Synchronization
import TestSupport
@testable import Wyoming
#if canImport(Glibc)
import Glibc
#endif

/// A Wyoming server in the test process, on 127.0.0.1 and a port of the kernel's choice,
/// that behaves as it is told: for the protocol's exchange, and for servers that fail.
final class FakeWyomingServer: Sendable {
    enum Behaviour: Sendable {
        /// Answers `describe` with one model of `languages`, and an utterance's `audio-stop` with `transcript`.
        case answering(transcript: String, languages: [String])
        /// Accepts, reads, and never answers.
        case silent
        /// Answers the first event with a line that is not Wyoming.
        case garbage
        /// Answers `describe` as `answering` does, and drops an utterance's connection after its
        /// `chunks`th audio chunk, as a server that died would.
        case dropping(chunks: Int, languages: [String])
        /// Answers `describe` with `voices` (each an en_US voice), and `synthesize` with `samples`
        /// samples of a 440 Hz tone at `rate` Hz, in chunks of 1,024.
        case speaking(voices: [String], rate: Int, samples: Int)
    }

    /// Every event received, in order, by connection.
    final class Received: Sendable {
        let events = Mutex<[[WyomingEvent]]>([])
        func withLock<T>(_ body: (inout [[WyomingEvent]]) -> T) -> T { events.withLock { body(&$0) } }
    }

    private let server: LoopbackServer
    let received = Received()
    var port: Int { server.port }

    init(_ behaviour: Behaviour) throws {
        let received = self.received
        server = try LoopbackServer { connection in
            let index = received.withLock { events in
                events.append([])
                return events.count - 1
            }
            Self.serve(connection, index: index, behaviour: behaviour, received: received)
        }
    }

    /// A port nobody listens on: a listener opened and closed again.
    static func closedPort() throws -> Int { try WyomingTestServer.freePort() }

    var address: WyomingAddress { try! WyomingAddress("wyoming:tcp://127.0.0.1:\(port)") }

    func stop() { server.stop() }

    private static func serve(_ connection: Int32, index: Int, behaviour: Behaviour, received: Received) {
        var buffer: [UInt8] = []
        while let event = readEvent(connection, &buffer) {
            received.withLock { $0[index].append(event) }
            switch behaviour {
            case .silent:
                continue
            case let .dropping(chunks, languages):
                if event.type == "describe" {
                    let model: [String: any Sendable] = ["name": "fake", "installed": true, "languages": languages]
                    let program: [String: any Sendable] = ["name": "fake-asr", "installed": true, "models": [model]]
                    write(connection, WyomingEvent(type: "info", fields: ["asr": [program]]).encoded())
                } else if received.withLock({ $0[index].filter { $0.type == "audio-chunk" }.count }) >= chunks {
                    return
                }
            case .garbage:
                write(connection, Array("HTTP/1.1 400 Bad Request\r\n\r\n".utf8))
                return
            case let .speaking(voices, rate, samples):
                if event.type == "describe" {
                    let entries: [[String: any Sendable]] = voices.map { ["name": $0, "installed": true, "languages": ["en_US"]] }
                    let program: [String: any Sendable] = ["name": "fake-tts", "installed": true, "voices": entries]
                    write(connection, WyomingEvent(type: "info", fields: ["tts": [program]]).encoded())
                } else if event.type == "synthesize" {
                    let format: [String: any Sendable] = ["rate": rate, "width": 2, "channels": 1]
                    write(connection, WyomingEvent(type: "audio-start", fields: format).encoded())
                    let tone = (0..<samples).map { Int16(8_000 * sin(2 * Double.pi * 440 * Double($0) / Double(rate))) }
                    for start in stride(from: 0, to: samples, by: 1_024) {
                        let bytes = tone[start..<min(start + 1_024, samples)].flatMap { sample -> [UInt8] in
                            let value = UInt16(bitPattern: sample)
                            return [UInt8(value & 0xff), UInt8(value >> 8)]
                        }
                        write(connection, WyomingEvent(type: "audio-chunk", fields: format, payload: bytes).encoded())
                    }
                    write(connection, WyomingEvent(type: "audio-stop").encoded())
                    return
                }
            case let .answering(transcript, languages):
                if event.type == "describe" {
                    let model: [String: any Sendable] = ["name": "fake", "installed": true, "languages": languages]
                    let program: [String: any Sendable] = ["name": "fake-asr", "installed": true, "models": [model]]
                    write(connection, WyomingEvent(type: "info", fields: ["asr": [program]]).encoded())
                } else if event.type == "audio-stop" {
                    write(connection, WyomingEvent(type: "transcript", fields: ["text": transcript]).encoded())
                }
            }
        }
    }

    private static func write(_ connection: Int32, _ bytes: [UInt8]) {
        _ = bytes.withUnsafeBytes { send(connection, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
    }

    private static func readEvent(_ connection: Int32, _ buffer: inout [UInt8]) -> WyomingEvent? {
        func fill() -> Bool {
            var chunk = [UInt8](repeating: 0, count: 65536)
            let count = chunk.withUnsafeMutableBytes { recv(connection, $0.baseAddress, $0.count, 0) }
            guard count > 0 else { return false }
            buffer += chunk[..<count]
            return true
        }
        while buffer.firstIndex(of: UInt8(ascii: "\n")) == nil { guard fill() else { return nil } }
        let newline = buffer.firstIndex(of: UInt8(ascii: "\n"))!
        guard let header = try? WyomingHeader(line: Array(buffer[..<newline])) else { return nil }
        buffer.removeFirst(newline + 1)
        while buffer.count < header.dataLength + header.payloadLength { guard fill() else { return nil } }
        let data = Array(buffer[..<header.dataLength])
        let payload = Array(buffer[header.dataLength..<(header.dataLength + header.payloadLength)])
        buffer.removeFirst(header.dataLength + header.payloadLength)
        return try? header.event(data: data, payload: payload)
    }
}
