import Foundation
import ParleyCore
import PocketSphinxRecognition
import Recognition
import Synchronization
import TestSupport
import Testing
@testable import Wyoming

/// Several Wyoming servers for one recognizer: how utterances are spread, and what happens to
/// one whose server fails.
@Suite("Wyoming servers shared")
struct WyomingPoolTests {
    static let english = LocaleTag("en-US")!
    static let addresses = (1...3).map { try! WyomingAddress("wyoming:tcp://127.0.0.1:\(10_000 + $0)") }

    @Test("each utterance goes to the server with the fewest in flight, the one used longest ago among equals")
    func spread() {
        let pool = WyomingPool(Self.addresses) { _ in }
        let first = (0..<3).compactMap { _ in pool.lease(excluding: []) }
        #expect(first == Self.addresses)
        #expect(pool.inFlight == [1, 1, 1])
        pool.release(Self.addresses[1])
        #expect(pool.lease(excluding: []) == Self.addresses[1])
        pool.release(Self.addresses[0])
        pool.release(Self.addresses[2])
        // Both have none in flight now; the first was used longer ago.
        #expect(pool.lease(excluding: []) == Self.addresses[0])
    }

    @Test("a server that failed is left out for a while, then tried again; one untried by the utterance is used when every other is out")
    func failure() {
        let notices = Mutex<[String]>([])
        let pool = WyomingPool(Array(Self.addresses.prefix(2))) { line in notices.withLock { $0.append(line) } }
        let now = Date()
        let first = pool.lease(excluding: [], now: now)
        #expect(first == Self.addresses[0])
        pool.release(Self.addresses[0])
        #expect(pool.failed(Self.addresses[0], now: now))
        #expect(!pool.failed(Self.addresses[0], now: now), "a failure is news once")
        #expect(pool.lease(excluding: [], now: now) == Self.addresses[1])
        pool.release(Self.addresses[1])
        #expect(pool.lease(excluding: [Self.addresses[1]], now: now) == Self.addresses[0], "left out, but untried by this utterance")
        pool.release(Self.addresses[0])
        #expect(pool.lease(excluding: Set(Self.addresses.prefix(2)), now: now) == nil)
        let later = now.addingTimeInterval(WyomingPool.retrySeconds + 1)
        let again = [pool.lease(excluding: [], now: later), pool.lease(excluding: [], now: later)]
        #expect(Set(again.compactMap { $0 }) == Set(Self.addresses.prefix(2)), "tried again after its time out")
        pool.answered(Self.addresses[0])
        #expect(notices.withLock { $0 } == ["the Wyoming server \(Self.addresses[0]) answers again; it takes utterances again"])
    }

    /// Feeds the recording and a second of silence through `request`; its final result.
    static func recognize(_ request: any RecognitionRequest) async throws -> RecognitionResult? {
        let samples = try Fixtures.rawSamples(Fixtures.recording("goforward.raw"))
        return try await WyomingProtocolTests.feed(request, samples).compactMap { event -> RecognitionResult? in
            if case let .final(result) = event { return result }
            return nil
        }.first
    }

    @Test("a server that dies mid-utterance: the whole utterance goes to the next, which answers; said once")
    func diesMidUtterance() async throws {
        let dying = try FakeWyomingServer(.dropping(chunks: 3, languages: ["en"]))
        let answering = try FakeWyomingServer(.answering(transcript: "Go forward ten meters.", languages: ["en"]))
        defer {
            dying.stop()
            answering.stop()
        }
        let notices = Mutex<[String]>([])
        let recognizer = WyomingRecognizer(addresses: [dying.address, answering.address], detector: SphinxSpeechDetector.make) { line in
            notices.withLock { $0.append(line) }
        }
        let request = try await recognizer.makeRequest(locale: Self.english, options: .init(endpointMilliseconds: 500))
        let result = try await Self.recognize(request)
        #expect(result?.text == "Go forward ten meters.")
        let died = try #require(dying.received.withLock { $0 }.last)
        let retold = try #require(answering.received.withLock { $0 }.last)
        let samples = { (events: [WyomingEvent]) in events.filter { $0.type == "audio-chunk" }.reduce(0) { $0 + $1.payload.count / 2 } }
        #expect(died.filter { $0.type == "audio-chunk" }.count >= 3)
        #expect(retold.map(\.type).prefix(2) == ["transcribe", "audio-start"] && retold.last?.type == "audio-stop")
        #expect(samples(retold) > samples(died), "the next server has the whole utterance, from its first sample")
        let said = notices.withLock { $0 }
        #expect(said.count == 1 && said[0].hasPrefix("the Wyoming server \(dying.address) failed: ")
                && said[0].hasSuffix("; the utterance goes to another server, nothing heard is lost"), "\(said)")
        #expect(recognizer.pool.inFlight == [0, 0])
    }

    @Test("no server left: the fallback decodes the utterance, kept whole; said once")
    func fallback() async throws {
        let dying = try FakeWyomingServer(.dropping(chunks: 2, languages: ["en"]))
        defer { dying.stop() }
        let local = Here(text: "Go forward ten meters.")
        let notices = Mutex<[String]>([])
        let recognizer = WyomingRecognizer(addresses: [dying.address], detector: SphinxSpeechDetector.make, fallback: local) { line in
            notices.withLock { $0.append(line) }
        }
        let request = try await recognizer.makeRequest(locale: Self.english, options: .init(endpointMilliseconds: 500))
        let result = try await Self.recognize(request)
        #expect(result?.text == "Go forward ten meters.")
        let recording = try Fixtures.rawSamples(Fixtures.recording("goforward.raw"))
        #expect(local.heard.withLock { $0 } > recording.count / 2, "the fallback heard the utterance")
        #expect(notices.withLock { $0 }.first?.hasSuffix("the utterance goes to the Whisper worker on this machine, nothing heard is lost") == true)
    }

    @Test("two servers answering: concurrent utterances are spread over both")
    func concurrent() async throws {
        let servers = try (0..<2).map { _ in try FakeWyomingServer(.answering(transcript: "Go forward ten meters.", languages: ["en"])) }
        defer { servers.forEach { $0.stop() } }
        let recognizer = WyomingRecognizer(addresses: servers.map(\.address), detector: SphinxSpeechDetector.make)
        _ = try await recognizer.describe()
        try await withThrowingTaskGroup(of: RecognitionResult?.self) { group in
            for _ in 0..<4 {
                group.addTask {
                    try await Self.recognize(try await recognizer.makeRequest(locale: Self.english, options: .init(endpointMilliseconds: 500)))
                }
            }
            for try await result in group { #expect(result?.text == "Go forward ten meters.") }
        }
        let utterances = servers.map { server in server.received.withLock { $0 }.filter { $0.first?.type == "transcribe" }.count }
        #expect(utterances.reduce(0, +) == 4 && utterances.allSatisfy { $0 >= 1 }, "\(utterances)")
    }
}

/// A recognizer on this machine that hears what it is given and answers `text`.
final class Here: RoutedRecognizer, Sendable {
    let text: String
    let heard = Mutex(0)

    init(text: String) { self.text = text }

    func supportedLocales() async -> [LocaleTag] { [LocaleTag("en-US")!] }
    func serves(_ locale: LocaleTag) async -> Bool { true }
    func makeRequest(locale: LocaleTag, options: RecognitionOptions) async throws -> any RecognitionRequest { Request(self) }
    func makeRequest(locale: LocaleTag, options: RecognitionOptions, newStream: Bool) async throws -> any RecognitionRequest {
        Request(self)
    }

    final class Request: RecognitionRequest, Sendable {
        let here: Here
        init(_ here: Here) { self.here = here }
        func append(_ chunk: PCMChunk) async throws -> [RecognitionEvent] {
            here.heard.withLock { $0 += chunk.samples.count }
            return []
        }
        func finish() async throws -> RecognitionResult { RecognitionResult(text: here.text, isFinal: true) }
        func cancel() async -> RecognitionResult { RecognitionResult(text: "", isFinal: true) }
    }
}
