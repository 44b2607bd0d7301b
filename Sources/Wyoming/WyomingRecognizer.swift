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
    private let server: WyomingDescription

    public init(address: WyomingAddress, detector: @escaping SpeechDetectorFactory, bounds: Bounds = Bounds()) {
        self.address = address
        self.makeDetector = detector
        self.bounds = bounds
        server = WyomingDescription(address: address, connect: bounds.connect, answer: bounds.describe, retry: bounds.retryDescribe)
    }

    /// Asks the server what it serves (`describe` → `info`); the answer is kept. Throws when
    /// it cannot be asked, or serves no speech recognition.
    @discardableResult
    public func describe() async throws -> WyomingInfo {
        let info = try await server.info()
        guard info.recognizes else {
            throw WyomingServerError(address: address, problem: "it serves no speech recognition (its info lists no installed asr model)")
        }
        return info
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

