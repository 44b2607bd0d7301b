import Foundation
import ParleyCore
import PocketSphinxRecognition
import Recognition
import TestSupport
import Testing
@testable import Wyoming

/// The Wyoming protocol as Parley speaks it, against a server in the test process: the
/// exchange of one utterance, and the servers that fail.
@Suite("Wyoming protocol")
struct WyomingProtocolTests {
    static let english = LocaleTag("en-US")!

    static func recognizer(_ server: FakeWyomingServer, bounds: WyomingRecognizer.Bounds = .init()) -> WyomingRecognizer {
        WyomingRecognizer(address: server.address, detector: SphinxSpeechDetector.make, bounds: bounds)
    }

    /// The recording with a second of silence after it, fed as a live microphone would be, in
    /// 100 ms chunks; the events the request gave, up to its final result.
    static func feed(_ request: any RecognitionRequest, _ samples: [Int16]) async throws -> [RecognitionEvent] {
        let padded = samples + [Int16](repeating: 0, count: 16_000)
        var events: [RecognitionEvent] = []
        for start in stride(from: 0, to: padded.count, by: 1600) {
            events += try await request.append(PCMChunk(format: .recognition,
                                                        samples: Array(padded[start..<min(start + 1600, padded.count)])))
            if events.contains(where: \.isFinal) { break }
        }
        return events
    }

    @Test("an event's header, data and payload survive the wire, data inline or after the header")
    func eventCoding() throws {
        let event = WyomingEvent(type: "audio-chunk", fields: ["rate": 16000, "width": 2, "channels": 1], payload: [1, 2, 3, 4])
        let bytes = event.encoded()
        let newline = try #require(bytes.firstIndex(of: UInt8(ascii: "\n")))
        let header = try WyomingHeader(line: Array(bytes[..<newline]))
        #expect(header.type == "audio-chunk")
        #expect(header.payloadLength == 4)
        let rest = Array(bytes[(newline + 1)...])
        let decoded = try header.event(data: Array(rest[..<header.dataLength]), payload: Array(rest[header.dataLength...]))
        #expect(decoded.payload == [1, 2, 3, 4])
        let fields = try JSONSerialization.jsonObject(with: decoded.data) as? [String: Any]
        #expect(fields?["rate"] as? Int == 16000)

        let inline = try WyomingHeader(line: Array(#"{"type":"transcript","data":{"text":"hola","language":"es"}}"#.utf8))
        let merged = try inline.event(data: Array(#"{"text":"hello"}"#.utf8), payload: [])
        #expect(try merged.decode(WyomingTranscript.self).text == "hello")
        #expect(throws: WyomingProtocolError.self) { try WyomingHeader(line: Array("not json".utf8)) }
        #expect(throws: WyomingProtocolError.self) { try WyomingHeader(line: Array(#"{"type":"x","payload_length":99999999999}"#.utf8)) }
    }

    @Test("addresses: wyoming:tcp://HOST:PORT, IPv6 in brackets; anything else is refused in one sentence",
          arguments: ["wyoming:tcp://127.0.0.1:10300", "wyoming:tcp://gpu-box.local:10300/", "wyoming:tcp://[::1]:10300"])
    func addresses(_ text: String) throws {
        let address = try WyomingAddress(text)
        #expect(address.port == 10300)
        #expect(try WyomingAddress(address.description) == address)
    }

    @Test("malformed addresses", arguments: ["wyoming:127.0.0.1:10300", "wyoming:tcp://127.0.0.1", "wyoming:tcp://:10300",
                                             "wyoming:tcp://host:0", "wyoming:tcp://host:99999", "wyoming:tcp://host:10300/asr"])
    func malformed(_ text: String) {
        let error = #expect(throws: WyomingAddressError.self) { try WyomingAddress(text) }
        let message = error?.description ?? ""
        #expect(message.contains("write wyoming:tcp://HOST:PORT") && !message.contains("\n"), "\(message)")
    }

    @Test("one utterance: transcribe in its language, audio-start, the speech in chunks, audio-stop; the transcript is the result")
    func oneUtterance() async throws {
        let server = try FakeWyomingServer(.answering(transcript: " Go forward ten meters. ", languages: ["en", "es"]))
        defer { server.stop() }
        let recognizer = Self.recognizer(server)
        #expect(await recognizer.supportedLocales().map(\.description) == ["en", "es"])
        #expect(await recognizer.serves(Self.english))
        #expect(await !recognizer.serves(LocaleTag("fr-FR")!))
        let samples = try Fixtures.rawSamples(Fixtures.recording("goforward.raw"))
        let request = try await recognizer.makeRequest(locale: Self.english, options: .init(endpointMilliseconds: 500))
        let events = try await Self.feed(request, samples)
        let final = try #require(events.compactMap { event -> RecognitionResult? in
            if case let .final(result) = event { return result }
            return nil
        }.first)
        #expect(final.text == "Go forward ten meters.")
        let started = try #require(events.compactMap { event -> Double? in
            if case let .speechStarted(at) = event { return at }
            return nil
        }.first)
        #expect(started < 0.6)

        let connections = server.received.withLock { $0 }
        #expect(connections.count == 2)  // describe, then the utterance
        let utterance = try #require(connections.last)
        #expect(utterance.map(\.type).first == "transcribe")
        #expect(try utterance[0].decode([String: String].self)["language"] == "en")
        #expect(utterance.map(\.type)[1] == "audio-start")
        #expect(utterance.map(\.type).last == "audio-stop")
        let chunks = utterance.filter { $0.type == "audio-chunk" }
        let sent = chunks.reduce(0) { $0 + $1.payload.count } / 2
        // The speech, from the pre-roll before its start to the endpoint after it: most of the
        // recording (its silences at either end aside), never all of the padding.
        #expect(sent > samples.count / 2 && sent < samples.count + 12_000, "\(sent) samples sent of \(samples.count)")
        #expect(chunks.count > 5)
        #expect(await (try? request.finish()) == nil)
    }

    @Test("a request for a language the server lists none of is refused, naming what it serves")
    func unservedLanguage() async throws {
        let server = try FakeWyomingServer(.answering(transcript: "x", languages: ["en"]))
        defer { server.stop() }
        await #expect(throws: RecognitionError.self) {
            _ = try await Self.recognizer(server).makeRequest(locale: LocaleTag("de-DE")!, options: .init())
        }
    }

    @Test("a refused connection fails in one sentence that names the server")
    func refused() async throws {
        let port = try FakeWyomingServer.closedPort()
        let recognizer = WyomingRecognizer(address: try WyomingAddress("wyoming:tcp://127.0.0.1:\(port)"),
                                           detector: SphinxSpeechDetector.make)
        let error = await #expect(throws: WyomingServerError.self) { try await recognizer.describe() }
        #expect(error?.description == "the Wyoming server wyoming:tcp://127.0.0.1:\(port) failed: it refused the connection (is the server running?)")
        #expect(await recognizer.supportedLocales().isEmpty)
    }

    @Test("a server that accepts and never answers fails within its bound")
    func silent() async throws {
        let server = try FakeWyomingServer(.silent)
        defer { server.stop() }
        var bounds = WyomingRecognizer.Bounds()
        bounds.describe = 1
        let started = Date()
        let error = await #expect(throws: WyomingServerError.self) { try await Self.recognizer(server, bounds: bounds).describe() }
        #expect(error?.problem == "it did not answer within 1 s")
        #expect(Date().timeIntervalSince(started) < 30)  // bounded, not hung: the bound itself is 1 s
    }

    @Test("a silent server's utterance fails within the transcript bound, after the audio was sent")
    func silentUtterance() async throws {
        let answering = try FakeWyomingServer(.answering(transcript: "x", languages: ["en"]))
        defer { answering.stop() }
        let languages = await Self.recognizer(answering).supportedLocales()
        #expect(!languages.isEmpty)
        let server = try FakeWyomingServer(.silent)
        defer { server.stop() }
        var bounds = WyomingRecognizer.Bounds()
        bounds.transcript = 1
        bounds.describe = 1
        let recognizer = Self.recognizer(server, bounds: bounds)
        // The silent server cannot describe itself: the request is made on a recognizer that was told.
        let request = WyomingRequest(recognizer: recognizer, locale: Self.english, options: .init(endpointMilliseconds: 500),
                                     detector: try SphinxSpeechDetector.make(hangoverFrames: 50))
        let samples = try Fixtures.rawSamples(Fixtures.recording("goforward.raw"))
        let error = await #expect(throws: WyomingServerError.self) { _ = try await Self.feed(request, samples) }
        #expect(error?.problem.hasPrefix("it did not answer within") == true)
        let received = server.received.withLock { $0 }
        #expect(received.first?.last?.type == "audio-stop")
    }

    @Test("a server that does not speak Wyoming fails in one sentence")
    func garbage() async throws {
        let server = try FakeWyomingServer(.garbage)
        defer { server.stop() }
        let error = await #expect(throws: WyomingServerError.self) { try await Self.recognizer(server).describe() }
        #expect(error?.problem.hasPrefix("it does not speak Wyoming: it sent a line that is not a JSON event header ('HTTP/1.1 400") == true,
                "\(String(describing: error))")
    }
}
