public import ParleyCore
import Foundation
import Logging
import Recognition
import Synchronization

/// Voices from a Wyoming server (`wyoming:tcp://HOST:PORT`, `wyoming-piper` and others).
///
/// Each utterance is one connection: `synthesize` (the text, and the voice by name), then the
/// server's `audio-start`, `audio-chunk`s and `audio-stop`. The audio is handed on as it
/// arrives, converted to the speaker's format (22,050 Hz mono, 16-bit), so it streams into
/// the persistent playback session; the first chunk plays while the rest is synthesized.
///
/// A voice's identifier is the server's address and the voice's name,
/// `wyoming:tcp://HOST:PORT#NAME`; without a name, the server's first voice for the
/// utterance's language speaks. The server speaks at its own pace: `Utterance.rate` is not
/// sent (the protocol has no rate), so the backlog of simultaneous interpretation is not
/// caught up by speaking faster with a Wyoming voice.
public final class WyomingSynthesizer: SpeechSynthesizer, Sendable {
    /// How long Parley waits on the server.
    public struct Bounds: Sendable {
        public var connect = 3.0
        public var describe = 5.0
        /// From `synthesize` to the first audio (a voice loads on its first use).
        public var firstAudio = 15.0
        /// From one chunk to the next.
        public var betweenChunks = 10.0
        public var retryDescribe = 10.0

        public init() {}
    }

    public let address: WyomingAddress
    public let bounds: Bounds
    private let server: WyomingDescription
    /// The connections speaking now, closed by `stopSpeaking`.
    private let speaking = Mutex<[ObjectIdentifier: WyomingConnection]>([:])

    public init(address: WyomingAddress, bounds: Bounds = Bounds()) {
        self.address = address
        self.bounds = bounds
        server = WyomingDescription(address: address, connect: bounds.connect, answer: bounds.describe, retry: bounds.retryDescribe)
    }

    /// Asks the server which voices it has; throws when it cannot be asked or has none.
    @discardableResult
    public func describe() async throws -> [Voice] {
        let info = try await server.info()
        let voices = info.voices.compactMap { entry in entry.voice.name.map { Self.voice(named: $0, languages: entry.voice.languages, at: address) } }
        guard !voices.isEmpty else {
            throw WyomingServerError(address: address, problem: "it has no voice (its info lists no installed tts voice)")
        }
        return voices
    }

    /// The server's voices; none when it cannot be asked.
    public func voices() async -> [Voice] { (try? await describe()) ?? [] }

    public func speak(_ utterance: Utterance) -> AsyncThrowingStream<SynthesisEvent, any Error> {
        let (stream, continuation) = AsyncThrowingStream.makeStream(of: SynthesisEvent.self, throwing: (any Error).self)
        let task = Task {
            do {
                try await self.synthesize(utterance) { continuation.yield($0) }
                continuation.finish()
            } catch {
                continuation.finish(throwing: error)
            }
        }
        continuation.onTermination = { _ in task.cancel() }
        return stream
    }

    public func stopSpeaking() async {
        let open = speaking.withLock { connections in
            defer { connections = [:] }
            return Array(connections.values)
        }
        for connection in open { connection.close() }
    }

    /// The identifier of the voice `name` on the server at `address`.
    public static func identifier(_ name: String, at address: WyomingAddress) -> String { "\(address)#\(name)" }

    /// The server and voice name an identifier names (no name: the server's first voice for the
    /// language); nil when it is not a Wyoming voice's.
    public static func parse(_ identifier: String) throws(WyomingAddressError) -> (address: WyomingAddress, name: String?)? {
        guard WyomingAddress.isWyoming(identifier) else { return nil }
        let parts = identifier.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false)
        let address = try WyomingAddress(String(parts[0]))
        let name = parts.count > 1 && !parts[1].isEmpty ? String(parts[1]) : nil
        return (address, name)
    }

    /// `voices`' names for a message: all of up to eight, else how many.
    static func listed(_ voices: [Voice]) -> String {
        voices.count > 8 ? "\(voices.count) listed" : voices.map(\.name).joined(separator: ", ")
    }

    private static func voice(named name: String, languages: [String]?, at address: WyomingAddress) -> Voice {
        let language = languages?.first ?? ""
        let locale = LocaleTag(language.replacingOccurrences(of: "_", with: "-"))
        return Voice(identifier: identifier(name, at: address), name: name, language: locale?.language ?? language,
                     locale: locale, gender: .unspecified)
    }

    /// The voice that speaks `utterance`: the one it names, or the first for its language.
    private func choose(for utterance: Utterance) async throws -> Voice {
        let voices = try await describe()
        switch utterance.voice {
        case let .identifier(identifier):
            let name = (try? Self.parse(identifier))??.name
            guard let name else {
                if let first = voices.first { return first }
                throw WyomingServerError(address: address, problem: "it has no voice")
            }
            guard let voice = voices.first(where: { $0.name == name }) else {
                throw WyomingServerError(address: address, problem: "it has no voice \(name) (its voices: \(Self.listed(voices)))")
            }
            return voice
        case let .locale(locale, _):
            let same = voices.filter { $0.language == locale.language }
            guard let voice = same.first(where: { $0.locale == locale }) ?? same.first else {
                throw WyomingServerError(address: address,
                                         problem: "it has no voice for \(locale) (its voices: \(Self.listed(voices)))")
            }
            return voice
        }
    }

    private func synthesize(_ utterance: Utterance, yield: (SynthesisEvent) -> Void) async throws {
        let voice = try await choose(for: utterance)
        let connection = try await WyomingConnection.open(address, timeout: bounds.connect)
        let key = ObjectIdentifier(connection)
        speaking.withLock { $0[key] = connection }
        defer {
            speaking.withLock { _ = $0.removeValue(forKey: key) }
            connection.close()
        }
        try await connection.send(WyomingEvent(type: "synthesize", fields: ["text": utterance.text, "voice": ["name": voice.name]]),
                                  timeout: bounds.connect)
        yield(.started(voice))
        let asked = Date()
        var converter: WyomingAudioConverter?
        while true {
            try Task.checkCancellation()
            let event: WyomingEvent
            do {
                event = try await connection.receive(timeout: converter == nil ? bounds.firstAudio : bounds.betweenChunks)
            } catch {
                if Task.isCancelled || speaking.withLock({ $0[key] == nil }) {
                    yield(.cancelled)
                    return
                }
                throw error
            }
            switch event.type {
            case "audio-start", "audio-chunk":
                let format = try event.decode(WyomingAudioFormat.self)
                if converter == nil {
                    converter = try WyomingAudioConverter(format, address: address)
                    wyomingLog.debug("\(voice.identifier): first audio \(Int(-asked.timeIntervalSinceNow * 1000)) ms after synthesize (\(format.rate) Hz)")
                }
                guard let converter, !event.payload.isEmpty else { continue }
                let samples = try converter.convert(event.payload, end: false)
                if !samples.isEmpty { yield(.audio(PCMChunk(format: .synthesis, samples: samples))) }
            case "audio-stop":
                if let rest = try converter?.convert([], end: true), !rest.isEmpty {
                    yield(.audio(PCMChunk(format: .synthesis, samples: rest)))
                }
                yield(.finished)
                return
            case "error":
                let message = (try? event.decode(WyomingTranscript.self).text) ?? "an error with no text"
                throw WyomingServerError(address: address, problem: "it answered with an error: \(message)")
            default:
                continue  // synthesize-stopped and anything newer
            }
        }
    }
}

/// The audio format of an `audio-start` or `audio-chunk` event.
struct WyomingAudioFormat: Decodable {
    var rate: Int
    var width: Int
    var channels: Int
}

/// A server's audio, converted to the speaker's: 16-bit mono at 22,050 Hz.
final class WyomingAudioConverter {
    let format: WyomingAudioFormat
    private let resampler: SampleRateConverter?

    init(_ format: WyomingAudioFormat, address: WyomingAddress) throws {
        guard format.width == 2, (1...2).contains(format.channels), (8_000...192_000).contains(format.rate) else {
            throw WyomingServerError(address: address, problem: "it sends audio Parley cannot play (\(format.rate) Hz, "
                                     + "\(format.width * 8)-bit, \(format.channels) channels; it plays 16-bit mono or stereo)")
        }
        self.format = format
        let target = AudioFormat.synthesis.sampleRate
        resampler = format.rate == target ? nil
            : try SampleRateConverter(from: format.rate, to: target, path: address.description)
    }

    /// The samples of `payload` (little-endian 16-bit, interleaved), mixed to mono and resampled.
    func convert(_ payload: [UInt8], end: Bool) throws -> [Int16] {
        let frames = payload.count / (2 * format.channels)
        var mono = [Int16](repeating: 0, count: frames)
        for frame in 0..<frames {
            var sum = 0
            for channel in 0..<format.channels {
                let at = 2 * (frame * format.channels + channel)
                sum += Int(Int16(bitPattern: UInt16(payload[at]) | UInt16(payload[at + 1]) << 8))
            }
            mono[frame] = Int16(sum / format.channels)
        }
        guard let resampler else { return mono }
        let converted = try resampler.process(mono.map { Float($0) / 32_768 }, end: end)
        return converted.map { Int16(max(-32_768, min(32_767, ($0 * 32_768).rounded()))) }
    }
}
