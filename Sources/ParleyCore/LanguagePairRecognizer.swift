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

    /// Why `makePairRequest` for `first` and `second` would fail now, or nil when it would
    /// start: asked when hands-free turns are switched on, so a refusal comes at once.
    func pairUnavailability(first: LocaleTag, second: LocaleTag) async -> (any Error)?
}

extension LanguagePairRecognizer {
    /// A recognizer that cannot tell beforehand is found out by its first request.
    public func pairUnavailability(first: LocaleTag, second: LocaleTag) async -> (any Error)? { nil }
}
