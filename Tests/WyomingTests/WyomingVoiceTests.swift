import Foundation
import ParleyCore
import Testing
@testable import Wyoming

/// Voices from a Wyoming server, against a server in the test process.
@Suite("Wyoming voices")
struct WyomingVoiceTests {
    static func collect(_ stream: AsyncThrowingStream<SynthesisEvent, any Error>) async throws -> [SynthesisEvent] {
        var events: [SynthesisEvent] = []
        for try await event in stream { events.append(event) }
        return events
    }

    @Test("the server's voices, named by address and name; an utterance in one streams as the speaker's format, resampled")
    func speaks() async throws {
        let server = try FakeWyomingServer(.speaking(voices: ["en_US-joe-medium", "en_GB-alan-low"], rate: 16_000, samples: 16_000))
        defer { server.stop() }
        let synthesizer = WyomingSynthesizer(address: server.address)
        let voices = await synthesizer.voices()
        #expect(voices.map(\.identifier) == ["\(server.address)#en_US-joe-medium", "\(server.address)#en_GB-alan-low"])
        #expect(voices.first?.locale == LocaleTag("en-US") && voices.first?.language == "en")
        let events = try await Self.collect(synthesizer.speak(Utterance(text: "Hello there.", voice: .identifier(voices[0].identifier))))
        guard case let .started(voice)? = events.first else { Issue.record("no start: \(events)"); return }
        #expect(voice.name == "en_US-joe-medium")
        #expect(events.last == .finished)
        let chunks = events.compactMap { event -> PCMChunk? in
            if case let .audio(chunk) = event { return chunk }
            return nil
        }
        #expect(chunks.count > 1 && chunks.allSatisfy { $0.format == .synthesis })
        // One second at 16 kHz is one second at 22,050 Hz, within the converter's filter.
        let samples = chunks.reduce(0) { $0 + $1.samples.count }
        #expect(abs(samples - 22_050) < 100, "\(samples) samples")
        // A 440 Hz tone keeps its pitch: about 880 zero crossings in its one second.
        let all = chunks.flatMap(\.samples)
        let crossings = zip(all, all.dropFirst()).filter { ($0 < 0) != ($1 < 0) }.count
        #expect(abs(crossings - 880) < 20, "\(crossings) zero crossings")
        let synthesized = server.received.withLock { $0 }.last?.first
        #expect(synthesized?.type == "synthesize")
        let data = try JSONSerialization.jsonObject(with: try #require(synthesized).data) as? [String: Any]
        #expect(data?["text"] as? String == "Hello there.")
        #expect((data?["voice"] as? [String: Any])?["name"] as? String == "en_US-joe-medium")
    }

    @Test("by locale: the server's first voice of the language; none for another language, in one sentence")
    func byLocale() async throws {
        let server = try FakeWyomingServer(.speaking(voices: ["en_US-joe-medium"], rate: 22_050, samples: 2_048))
        defer { server.stop() }
        let synthesizer = WyomingSynthesizer(address: server.address)
        let events = try await Self.collect(synthesizer.speak(Utterance(text: "Hi.", voice: .locale(LocaleTag("en-GB")!))))
        #expect(events.compactMap { event -> Int? in
            if case let .audio(chunk) = event { return chunk.samples.count }
            return nil
        }.reduce(0, +) == 2_048)
        let error = await #expect(throws: WyomingServerError.self) {
            _ = try await Self.collect(synthesizer.speak(Utterance(text: "Hola.", voice: .locale(LocaleTag("es-ES")!))))
        }
        #expect(error?.problem == "it has no voice for es-ES (its voices: en_US-joe-medium)")
        let unknown = await #expect(throws: WyomingServerError.self) {
            _ = try await Self.collect(synthesizer.speak(Utterance(text: "Hi.", voice: .identifier("\(server.address)#nobody"))))
        }
        #expect(unknown?.problem == "it has no voice nobody (its voices: en_US-joe-medium)")
    }

    @Test("the router: a Wyoming voice's utterance goes to its server, any other to the local synthesizer")
    func router() async throws {
        let server = try FakeWyomingServer(.speaking(voices: ["en_US-joe-medium"], rate: 22_050, samples: 1_024))
        defer { server.stop() }
        let joe = "\(server.address)#en_US-joe-medium"
        let router = VoiceRouter(local: nil, voices: [joe, "en-us"])
        #expect(router.servers.map(\.address) == [server.address])
        #expect(await router.unavailability(of: joe) == nil)
        #expect(await router.unavailability(of: "\(server.address)#nobody")?.contains("has no voice nobody") == true)
        #expect(await router.unavailability(of: "wyoming:tcp://127.0.0.1:1#x")?.contains("was not given") == true)
        #expect(await router.voices().map(\.identifier) == [joe])
        let events = try await Self.collect(router.speak(Utterance(text: "Hi.", voice: .identifier(joe))))
        #expect(events.last == .finished)
        await #expect(throws: (any Error).self) {
            _ = try await Self.collect(router.speak(Utterance(text: "Hi.", voice: .locale(LocaleTag("en-US")!))))
        }
    }

    @Test("identifiers: wyoming:tcp://HOST:PORT#NAME, the name optional; a malformed address is refused")
    func identifiers() throws {
        let parsed = try #require(try WyomingSynthesizer.parse("wyoming:tcp://127.0.0.1:10200#en_US-joe-medium"))
        #expect(parsed.address.port == 10200 && parsed.name == "en_US-joe-medium")
        #expect(try WyomingSynthesizer.parse("wyoming:tcp://127.0.0.1:10200")?.name == nil)
        #expect(try WyomingSynthesizer.parse("en-us+f3") == nil)
        #expect(throws: WyomingAddressError.self) { try WyomingSynthesizer.parse("wyoming:tcp://127.0.0.1#joe") }
    }
}
