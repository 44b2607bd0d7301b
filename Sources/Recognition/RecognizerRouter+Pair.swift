public import ParleyCore

/// Two-language requests go to Whisper, the one engine that decodes an
/// utterance in two languages at once; both locales must be Whisper's.
extension RecognizerRouter: LanguagePairRecognizer {
    /// Starts a two-language request on Whisper, or throws a sentence saying why it cannot.
    public func makePairRequest(first: LocaleTag, second: LocaleTag,
                                options: RecognitionOptions) async throws -> any RecognitionRequest {
        if let reason = await pairUnavailability(first: first, second: second) { throw reason }
        return try await whisperEngine!.makePairRequest(first: first, second: second, options: options)
    }

    /// Nil when Whisper is here and serves both locales; else the sentence saying why not.
    public func pairUnavailability(first: LocaleTag, second: LocaleTag) async -> (any Error)? {
        guard let whisper = whisperEngine else {
            if whisperLeftOut { return PairNeedsWhisper(chosen: wyomingEngine == nil ? "pocketsphinx" : "wyoming:…") }
            return RecognitionError.notInstalled(what: "Whisper, which hands-free turns need to hear either language,",
                                                 remedy: "run `make models`, or use `--turns alternate`")
        }
        for locale in [first, second] where await engine(for: locale) != .whisper {
            return RecognitionError.unsupportedLocale(locale, installed: await whisper.supportedLocales())
        }
        return nil
    }
}

/// Hands-free turns asked of a conversation that `--recognizer` keeps off the local Whisper
/// (PocketSphinx, or a Wyoming server, which decodes one language per request).
public struct PairNeedsWhisper: Error, CustomStringConvertible {
    /// What `--recognizer` chose: `pocketsphinx` or `wyoming:…`.
    public var chosen = "pocketsphinx"

    public init(chosen: String = "pocketsphinx") { self.chosen = chosen }

    public var description: String {
        "they hear both languages with Whisper, which --recognizer \(chosen) leaves out of this conversation"
    }
}
