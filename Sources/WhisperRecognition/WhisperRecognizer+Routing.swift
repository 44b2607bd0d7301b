public import Recognition

/// Whisper behind `RecognizerRouter`: its dictation and its two-language requests.
extension WhisperRecognizer: RoutedPairRecognizer {}
