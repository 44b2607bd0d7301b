import Foundation
public import Locales
public import Logging
public import ParleyCore
public import Recognition
import Synchronization

/// Speech recognition with PocketSphinx: one decoder per locale, loaded on
/// first use and kept for every later request, each on its own thread.
///
/// ```swift
/// let recognizer = PocketSphinxRecognizer(models: PocketSphinxModelRegistry(userDirectory: nil))
/// let request = try await recognizer.makeRequest(locale: LocaleTag("en-US")!, options: .init())
/// for chunk in chunks { events += try await request.append(chunk) }
/// ```
///
/// The trailing silence that ends an utterance is the decoder's voice
/// activity setting (`-vad_postspeech`), fixed when the model loads: a
/// request asking for another endpoint reloads that locale's decoder once.
public final class PocketSphinxRecognizer: SpeechRecognizer, StreamingRecognizer, Sendable {
    /// The installed models.
    public let models: PocketSphinxModelRegistry
    private let priorities: PriorityTable
    private let flatLexiconPass: Bool
    private let maximumActiveHMMs: Int
    private let logger: Logger
    private let decoders = Mutex<[LocaleTag: Loading]>([:])

    /// A decoder being loaded or loaded, with the settings it was asked for.
    private struct Loading: Sendable {
        var configuration: DecoderConfiguration
        var task: Task<LocaleDecoder, any Error>
    }

    /// Creates a recognizer over `models`; a bare language (`en`) resolves through the
    /// recognition table of `priorities`. `flatLexiconPass` turns on `-fwdflat` (off by default);
    /// `maximumActiveHMMs` bounds the first pass (`-maxhmmpf`, 6000 by default, 30000 is
    /// PocketSphinx's own). Model loads and their failures are logged to `logger`; PocketSphinx's
    /// own log is silenced.
    public init(models: PocketSphinxModelRegistry, priorities: PriorityTable = PriorityTable(), flatLexiconPass: Bool = false,
                maximumActiveHMMs: Int = PocketSphinxRecognizer.defaultMaximumActiveHMMs,
                logger: Logger = Logger(label: "parley.recognition")) {
        self.models = models
        self.priorities = priorities
        self.flatLexiconPass = flatLexiconPass
        self.maximumActiveHMMs = maximumActiveHMMs
        self.logger = logger
        SphinxLog.silence()
    }

    /// Locales with an installed model.
    public func supportedLocales() async -> [LocaleTag] { models.supportedLocales }

    /// Whether `locale`'s model is installed and loads (loading it now if it is not loaded yet).
    public func isAvailable(_ locale: LocaleTag) async -> Bool {
        guard let resolved = try? resolve(locale) else { return false }
        if let loaded = decoders.withLock({ $0[resolved]?.task }), (try? await loaded.value) != nil { return true }
        let endpoint = RecognitionOptions().endpointMilliseconds
        return (try? await decoder(for: resolved, endpointMilliseconds: endpoint)) != nil
    }

    /// The installed locale that serves `locale` (`en` → `en-US`); throws `unsupportedLocale`.
    public func resolve(_ locale: LocaleTag) throws -> LocaleTag {
        let resolved = priorities.resolve(locale, engine: .recognition) { models.model(for: $0) != nil } ?? locale
        guard models.model(for: resolved) != nil else {
            throw RecognitionError.unsupportedLocale(locale, installed: models.supportedLocales)
        }
        return resolved
    }

    /// Loads `locale`'s decoder now, with the endpoint a conversation will use,
    /// so that the first turn does not wait for the model to load.
    public func preload(_ locale: LocaleTag, endpointMilliseconds: Int) async throws {
        _ = try await decoder(for: resolve(locale), endpointMilliseconds: endpointMilliseconds)
    }

    /// Starts a request for one utterance, continuing the audio stream of the previous one.
    public func makeRequest(locale: LocaleTag, options: RecognitionOptions) async throws -> any RecognitionRequest {
        try await makeRequest(locale: locale, options: options, newStream: false)
    }

    /// Starts a request; `newStream` when its audio does not continue the previous request's
    /// (a new file, a new capture), which resets the noise estimate (`ps_start_stream`).
    public func makeRequest(locale: LocaleTag, options: RecognitionOptions,
                            newStream: Bool) async throws -> any RecognitionRequest {
        try await makeDecoderRequest(locale: locale, options: options, newStream: newStream)
    }

    /// `makeRequest(locale:options:newStream:)` with the concrete request type.
    public func makeDecoderRequest(locale: LocaleTag, options: RecognitionOptions,
                                   newStream: Bool) async throws -> PocketSphinxRequest {
        let decoder = try await decoder(for: resolve(locale), endpointMilliseconds: options.endpointMilliseconds)
        let request = PocketSphinxRequest(decoder: decoder, options: options)
        try await request.open(newStream: newStream)
        return request
    }

    /// The decoder for `locale` with the endpoint asked for, loading it when needed.
    private func decoder(for locale: LocaleTag, endpointMilliseconds: Int) async throws -> LocaleDecoder {
        let wanted = configuration(for: locale, endpointMilliseconds: endpointMilliseconds)
        let task = decoders.withLock { decoders in
            if let existing = decoders[locale], existing.configuration == wanted { return existing.task }
            let task = Task { [logger] in try await Self.load(wanted, logger: logger) }
            decoders[locale] = Loading(configuration: wanted, task: task)
            return task
        }
        do {
            return try await task.value
        } catch {
            decoders.withLock { if $0[locale]?.task == task { $0[locale] = nil } }
            throw error
        }
    }

    private static func load(_ configuration: DecoderConfiguration, logger: Logger) async throws -> LocaleDecoder {
        let started = Date()
        do {
            let decoder = try await LocaleDecoder.load(configuration)
            logger.debug("speech model loaded", metadata: [
                "locale": "\(configuration.model.locale)", "arguments": "\(configuration.tuning.joined(separator: " "))",
                "seconds": "\(String(format: "%.2f", Date().timeIntervalSince(started)))"])
            return decoder
        } catch {
            logger.error("speech model failed to load", metadata: ["locale": "\(configuration.model.locale)",
                                                                    "error": "\(error)"])
            throw error
        }
    }

    /// The settings this recognizer loads `locale`'s decoder with for `endpointMilliseconds`.
    func configuration(for locale: LocaleTag, endpointMilliseconds: Int) -> DecoderConfiguration {
        DecoderConfiguration(model: models.model(for: locale)!,
                             postSpeechFrames: DecoderConfiguration.frames(forMilliseconds: endpointMilliseconds),
                             flatLexiconPass: flatLexiconPass, maximumActiveHMMs: maximumActiveHMMs)
    }

    /// Parley's `-maxhmmpf`, the most HMMs the first pass keeps active per frame, below
    /// PocketSphinx's default of 30000 (the trade of time for words: docs/recognition.md).
    public static let defaultMaximumActiveHMMs = 6000

    /// The decoder settings a default recognizer uses for `endpointMilliseconds`, as
    /// `pocketsphinx_continuous` arguments (without the model files): what comparisons run the tool with.
    public static func commandLineTuning(endpointMilliseconds: Int = RecognitionOptions().endpointMilliseconds) -> [String] {
        DecoderConfiguration.tuning(postSpeechFrames: DecoderConfiguration.frames(forMilliseconds: endpointMilliseconds))
    }
}
