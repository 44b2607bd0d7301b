import Foundation
import Locales
public import ParleyCore
import Synchronization

/// The recognition engines Parley has.
public enum RecognizerKind: String, Sendable, Hashable, CaseIterable, Codable {
    /// Whisper through the worker: every language of its model, accurate.
    case whisper
    /// PocketSphinx: the installed locale models (en-US), fastest, grammars and yes/no hints.
    case pocketsphinx
    /// A Wyoming server (`--recognizer wyoming:tcp://HOST:PORT`): the languages its models list.
    case wyoming
}

/// One recognizer over both engines: each request goes to the engine that
/// serves its locale best — a person's choice for that locale first, then the
/// preferences — and a grammar always goes to PocketSphinx, which has them.
///
/// It knows the engines only as `RoutedRecognizer`s: the executable builds
/// them (PocketSphinxRecognition, WhisperRecognition) and hands them in, so
/// this module imports neither engine.
public final class RecognizerRouter: SpeechRecognizer, StreamingRecognizer, Sendable {
    /// Whisper, when installed.
    package let whisperEngine: (any RoutedPairRecognizer)?
    /// PocketSphinx.
    package let pocketsphinxEngine: (any RoutedRecognizer)?
    /// A Wyoming server, when one was given: it then serves every dictation request it can.
    package let wyomingEngine: (any RoutedRecognizer)?
    /// Whether `--recognizer pocketsphinx` left Whisper out (rather than its not being installed).
    public let whisperLeftOut: Bool
    private let preferences: RecognizerPreferences
    private let choices = Mutex<[String: RecognizerKind]>([:])

    /// Creates a router; `forced` makes one engine serve every locale. Wyoming servers
    /// (`wyoming`, forced) serve every dictation request, PocketSphinx still serving grammars;
    /// not forced, they serve the locales `choose` gives them (a party's `recognizer=`).
    public init(whisper: (any RoutedPairRecognizer)?, pocketsphinx: (any RoutedRecognizer)?,
                wyoming: (any RoutedRecognizer)? = nil,
                preferences: RecognizerPreferences = .standard, forced: RecognizerKind? = nil) {
        whisperEngine = forced == .pocketsphinx || forced == .wyoming ? nil : whisper
        whisperLeftOut = forced == .pocketsphinx || forced == .wyoming
        pocketsphinxEngine = forced == .whisper ? nil : pocketsphinx
        wyomingEngine = wyoming
        self.preferences = forced == .wyoming ? RecognizerPreferences(rows: ["*": [.wyoming]]) : preferences
    }

    /// Makes `kind` serve `locale`'s language from now on (`:recognizer A whisper`).
    public func choose(_ kind: RecognizerKind, for locale: LocaleTag) {
        choices.withLock { $0[locale.language] = kind }
    }

    /// Every locale either engine serves.
    public func supportedLocales() async -> [LocaleTag] {
        var locales = await pocketsphinxEngine?.supportedLocales() ?? []
        for locale in await whisperEngine?.supportedLocales() ?? [] where !locales.contains(locale) {
            locales.append(locale)
        }
        for locale in await wyomingEngine?.supportedLocales() ?? [] where !locales.contains(locale) {
            locales.append(locale)
        }
        return locales
    }

    /// The engine that would serve `locale` with `hint`; nil when none does.
    public func engine(for locale: LocaleTag, hint: RecognitionHint = .dictation) async -> RecognizerKind? {
        var order = preferences.order(for: locale.language)
        if case .grammar = hint { order = [.pocketsphinx] }
        if let chosen = choices.withLock({ $0[locale.language] }) { order = [chosen] }
        for kind in order where await serves(kind, locale) { return kind }
        return nil
    }

    /// Whether either engine serves `locale` for dictation, as `makeRequest` would choose it.
    public func serves(_ locale: LocaleTag) async -> Bool {
        await engine(for: locale) != nil
    }

    /// Starts a request on the engine that serves `locale`.
    public func makeRequest(locale: LocaleTag, options: RecognitionOptions) async throws -> any RecognitionRequest {
        try await makeRequest(locale: locale, options: options, newStream: false)
    }

    /// Starts a request on the engine that serves `locale`; `newStream` for a new file or capture.
    public func makeRequest(locale: LocaleTag, options: RecognitionOptions,
                            newStream: Bool) async throws -> any RecognitionRequest {
        guard let kind = await engine(for: locale, hint: options.hint) else {
            throw RecognitionError.unsupportedLocale(locale, installed: await supportedLocales())
        }
        switch kind {
        case .whisper: return try await whisperEngine!.makeRequest(locale: locale, options: options, newStream: newStream)
        case .pocketsphinx: return try await pocketsphinxEngine!.makeRequest(locale: locale, options: options, newStream: newStream)
        case .wyoming: return try await wyomingEngine!.makeRequest(locale: locale, options: options, newStream: newStream)
        }
    }

    /// Whether `kind` is here and can serve `locale`.
    public func canServe(_ kind: RecognizerKind, _ locale: LocaleTag) async -> Bool {
        await serves(kind, locale)
    }

    private func serves(_ kind: RecognizerKind, _ locale: LocaleTag) async -> Bool {
        switch kind {
        case .whisper: return await whisperEngine?.serves(locale) ?? false
        case .pocketsphinx: return await pocketsphinxEngine?.serves(locale) ?? false
        case .wyoming: return await wyomingEngine?.serves(locale) ?? false
        }
    }
}
