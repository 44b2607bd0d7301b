public import ParleyCore

/// One engine behind `RecognizerRouter`: a streaming recognizer that says
/// which locales it serves. The engines conform in their own modules
/// (`PocketSphinxRecognizer` in PocketSphinxRecognition, `WhisperRecognizer`
/// in WhisperRecognition), so this module imports neither of them.
public protocol RoutedRecognizer: StreamingRecognizer {
    /// Whether it serves `locale` for dictation, as `makeRequest` would.
    func serves(_ locale: LocaleTag) async -> Bool
}

/// The engine behind the router's two-language requests: Whisper, the one
/// engine that decodes an utterance in two languages at once.
public protocol RoutedPairRecognizer: RoutedRecognizer, LanguagePairRecognizer {}
