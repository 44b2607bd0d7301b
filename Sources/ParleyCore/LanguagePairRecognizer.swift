/// A recognizer that decodes one utterance in two languages at once, for a
/// conversation whose next speaker is not known in advance.
///
/// The request's final result carries `hypotheses`: one `LanguageHypothesis`
/// per locale, in the order asked; its `text` is the first locale's.
public protocol LanguagePairRecognizer: AnyObject, Sendable {
    /// Starts a request for one utterance that may be in either `first` or `second`
    /// (partial results, when any, are in `first`).
    func makePairRequest(first: LocaleTag, second: LocaleTag,
                         options: RecognitionOptions) async throws -> any RecognitionRequest
}
