public import ParleyCore
public import Recognition
import Foundation
import Synchronization

/// Speech recognition by a Wyoming server (`wyoming:tcp://HOST:PORT`): Home Assistant's and
/// Rhasspy's protocol, served by `wyoming-faster-whisper` and others, on this machine or another.
///
/// Parley's own detector decides where an utterance starts and ends (`SpeechDetector`, as for
/// Whisper); each utterance is one connection: `transcribe` (its language), `audio-start`,
/// the audio as it is heard, `audio-stop`, and the server's `transcript` is the final result.
/// A server that refuses, stays silent past its bound, drops the connection or does not speak
/// Wyoming fails the request with one sentence (`WyomingServerError`).
///
/// What a server cannot give, the conversation does without: it gives no confidence (a
/// transcript counts as sure), no word times (no clause-by-clause interpretation), and one
/// language per request (no hands-free turns).
public final class WyomingRecognizer: RoutedRecognizer, Sendable {
    /// How long Parley waits on the server.
    public struct Bounds: Sendable {
        /// To accept the connection.
        public var connect = 3.0
        /// To answer `describe`.
        public var describe = 5.0
        /// To answer an utterance's end with its transcript: this, plus twice the utterance's
        /// length. A Whisper server decoding a noise retries at higher temperatures over a
        /// 30-second window, which takes a loaded machine more than 10 s for a fraction of a second.
        public var transcript = 30.0
        /// How long a server that could not be asked what it serves is not asked again.
        public var retryDescribe = 10.0

        public init() {}
    }

    public let address: WyomingAddress
    public let bounds: Bounds
    let makeDetector: SpeechDetectorFactory
    /// The server's answer to `describe`, or its last failure and when it came.
    private let described = Mutex<Result<WyomingInfo, WyomingServerError>?>(nil)
    private let failedAt = Mutex<Date?>(nil)

    public init(address: WyomingAddress, detector: @escaping SpeechDetectorFactory, bounds: Bounds = Bounds()) {
        self.address = address
        self.makeDetector = detector
        self.bounds = bounds
    }

    /// Asks the server what it serves (`describe` → `info`); the answer is kept.
    @discardableResult
    public func describe() async throws -> WyomingInfo {
        if let known = described.withLock({ $0 }) {
            switch known {
            case let .success(info): return info
            case let .failure(error):
                if let failedAt = failedAt.withLock({ $0 }), -failedAt.timeIntervalSinceNow < bounds.retryDescribe { throw error }
            }
        }
        do {
            return try await askWhatItServes()
        } catch let error as WyomingServerError {
            described.withLock { $0 = .failure(error) }
            failedAt.withLock { $0 = Date() }
            throw error
        }
    }

    private func askWhatItServes() async throws -> WyomingInfo {
        let connection = try await WyomingConnection.open(address, timeout: bounds.connect)
        defer { connection.close() }
        try await connection.send(WyomingEvent(type: "describe"), timeout: bounds.describe)
        while true {
            let event = try await connection.receive(timeout: bounds.describe)
            guard event.type == "info" else { continue }
            let info: WyomingInfo
            do { info = try event.decode(WyomingInfo.self) } catch {
                throw WyomingServerError(address: address, problem: "it does not speak Wyoming: \(error)")
            }
            guard info.recognizes else {
                throw WyomingServerError(address: address, problem: "it serves no speech recognition (its info lists no installed asr model)")
            }
            described.withLock { $0 = .success(info) }
            return info
        }
    }

    /// The languages the server's installed models list; none when it cannot be asked.
    public func supportedLocales() async -> [LocaleTag] {
        let info = try? await describe()
        return (info?.languages ?? []).compactMap { LocaleTag($0) }
    }

    public func serves(_ locale: LocaleTag) async -> Bool {
        let languages = Set(await supportedLocales().map(\.language))
        return languages.contains(Self.serverLanguage(locale))
    }

    public func makeRequest(locale: LocaleTag, options: RecognitionOptions) async throws -> any RecognitionRequest {
        try await makeRequest(locale: locale, options: options, newStream: true)
    }

    public func makeRequest(locale: LocaleTag, options: RecognitionOptions, newStream: Bool) async throws -> any RecognitionRequest {
        guard await serves(locale) else {
            throw RecognitionError.unsupportedLocale(locale, installed: await supportedLocales())
        }
        let detector = try makeDetector(max(1, options.endpointMilliseconds / 10))
        return WyomingRequest(recognizer: self, language: Self.serverLanguage(locale), options: options, detector: detector)
    }

    /// The language code a Whisper server knows `locale` by.
    static func serverLanguage(_ locale: LocaleTag) -> String {
        ["nb": "no", "jv": "jw"][locale.language] ?? locale.language
    }
}

/// What a Wyoming server says it serves (`info`), as far as recognition goes.
public struct WyomingInfo: Sendable, Decodable {
    public struct Program: Sendable, Decodable {
        public var name: String?
        public var version: String?
        public var installed: Bool?
        public var models: [Model]?
        public var supportsTranscriptStreaming: Bool?

        enum CodingKeys: String, CodingKey {
            case name, version, installed, models
            case supportsTranscriptStreaming = "supports_transcript_streaming"
        }
    }

    public struct Model: Sendable, Decodable {
        public var name: String?
        public var installed: Bool?
        public var languages: [String]?
    }

    public var asr: [Program]?

    /// The installed recognition models.
    public var models: [Model] {
        (asr ?? []).filter { $0.installed != false }.flatMap { $0.models ?? [] }.filter { $0.installed != false }
    }

    /// The installed recognition programs, for a person: "faster-whisper 3.8.1 (whisper-base)".
    public var summary: String {
        (asr ?? []).filter { $0.installed != false }.map { program in
            let models = (program.models ?? []).filter { $0.installed != false }
                .compactMap { $0.name.map { String($0.split(separator: "/").last ?? Substring($0)) } }
            return [program.name, program.version].compactMap { $0 }.joined(separator: " ")
                + (models.isEmpty ? "" : " (\(models.joined(separator: ", ")))")
        }.joined(separator: "; ")
    }

    /// Whether an installed recognition model is listed.
    public var recognizes: Bool { !models.isEmpty }

    /// Every language an installed model lists, once each, in their order.
    public var languages: [String] {
        models.flatMap { $0.languages ?? [] }.reduce(into: []) { if !$0.contains($1) { $0.append($1) } }
    }
}
