import Foundation
import Synchronization
import TestSupport
@testable import WyomingRecognition
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
    }

    let port: Int
    private let listener: Int32
    private let behaviour: Behaviour
    /// Every event received, in order, by connection.
    let received = Mutex<[[WyomingEvent]]>([])
    private let open = Mutex<[Int32]>([])

    init(_ behaviour: Behaviour) throws {
        self.behaviour = behaviour
        (listener, port) = try LoopbackSocket.bound(listening: 8)
        let thread = Thread { [self] in acceptLoop() }
        thread.start()
    }

    /// A port nobody listens on: a listener opened and closed again.
    static func closedPort() throws -> Int {
        let server = try FakeWyomingServer(.silent)
        server.stop()
        return server.port
    }

    var address: WyomingAddress { try! WyomingAddress("wyoming:tcp://127.0.0.1:\(port)") }

    func stop() {
        shutdown(listener, Int32(SHUT_RDWR))
        close(listener)
        for descriptor in open.withLock({ $0 }) { shutdown(descriptor, Int32(SHUT_RDWR)) }
    }

    private func acceptLoop() {
        while true {
            let connection = accept(listener, nil, nil)
            guard connection >= 0 else { return }
            open.withLock { $0.append(connection) }
            let index = received.withLock { events in
                events.append([])
                return events.count - 1
            }
            let thread = Thread { [self] in serve(connection, index: index) }
            thread.start()
        }
    }

    private func serve(_ connection: Int32, index: Int) {
        defer { close(connection) }
        var buffer: [UInt8] = []
        while let event = readEvent(connection, &buffer) {
            received.withLock { $0[index].append(event) }
            switch behaviour {
            case .silent:
                continue
            case .garbage:
                write(connection, Array("HTTP/1.1 400 Bad Request\r\n\r\n".utf8))
                return
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

    private func write(_ connection: Int32, _ bytes: [UInt8]) {
        _ = bytes.withUnsafeBytes { send(connection, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
    }

    private func readEvent(_ connection: Int32, _ buffer: inout [UInt8]) -> WyomingEvent? {
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
