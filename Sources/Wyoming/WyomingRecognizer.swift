public import ParleyCore
public import Recognition
import Foundation
import Synchronization

/// Speech recognition by Wyoming servers (`wyoming:tcp://HOST:PORT`): Home Assistant's and
/// Rhasspy's protocol, served by `wyoming-faster-whisper` and others, on this machine or another.
///
/// Parley's own detector decides where an utterance starts and ends (`SpeechDetector`, as for
/// Whisper); each utterance is one connection: `transcribe` (its language), `audio-start`,
/// the audio as it is heard, `audio-stop`, and the server's `transcript` is the final result.
///
/// With several servers, each utterance goes to the one with the fewest in flight
/// (`WyomingPool`). A server that refuses, drops the connection, stays silent past its bound or
/// does not speak Wyoming is left out for a while, named in one line (`notice`), and the
/// utterance, kept whole from its first sample, is sent again to another server, or decoded
/// by `fallback` (the Whisper worker on this machine) when none is left. Only when nothing is
/// left does the request fail, with the server's sentence (`WyomingServerError`).
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

    /// The servers, in the order given.
    public let addresses: [WyomingAddress]
    /// The first server, named where one stands for all.
    public var address: WyomingAddress { addresses[0] }
    public let bounds: Bounds
    /// What decodes an utterance when no server is left; nil: the utterance then fails.
    public let fallback: (any RoutedRecognizer)?
    let makeDetector: SpeechDetectorFactory
    let pool: WyomingPool
    private let descriptions: [WyomingDescription]

    /// A recognizer over `addresses` (at least one); `notice` is told, one line each, of a
    /// server that fails and of one that answers again.
    public init(addresses: [WyomingAddress], detector: @escaping SpeechDetectorFactory, bounds: Bounds = Bounds(),
                fallback: (any RoutedRecognizer)? = nil, notice: @escaping @Sendable (String) -> Void = { _ in }) {
        precondition(!addresses.isEmpty, "a Wyoming recognizer needs a server")
        self.addresses = addresses
        self.makeDetector = detector
        self.bounds = bounds
        self.fallback = fallback
        pool = WyomingPool(addresses, notice: notice)
        descriptions = addresses.map {
            WyomingDescription(address: $0, connect: bounds.connect, answer: bounds.describe, retry: bounds.retryDescribe)
        }
    }

    /// A recognizer over one server.
    public convenience init(address: WyomingAddress, detector: @escaping SpeechDetectorFactory, bounds: Bounds = Bounds()) {
        self.init(addresses: [address], detector: detector, bounds: bounds)
    }

    /// Asks the servers what they serve (`describe` → `info`), the first that answers; the
    /// answer is kept. Throws the first server's sentence when none can be asked, or none
    /// serves speech recognition.
    @discardableResult
    public func describe() async throws -> WyomingInfo {
        var first: (any Error)?
        for description in descriptions {
            do {
                let info = try await description.info()
                guard info.recognizes else {
                    throw WyomingServerError(address: description.address,
                                             problem: "it serves no speech recognition (its info lists no installed asr model)")
                }
                return info
            } catch {
                first = first ?? error
            }
        }
        throw first ?? WyomingServerError(address: address, problem: "it cannot be asked")
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
        return WyomingRequest(recognizer: self, locale: locale, options: options, detector: detector)
    }

    /// The language code a Whisper server knows `locale` by.
    static func serverLanguage(_ locale: LocaleTag) -> String {
        ["nb": "no", "jv": "jw"][locale.language] ?? locale.language
    }
}

