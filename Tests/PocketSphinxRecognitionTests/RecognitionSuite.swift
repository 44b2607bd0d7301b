import Testing
@testable import PocketSphinxRecognition

/// Every test that decodes: one suite, run one test at a time, because the
/// tests share one recognizer (one decoder per locale, as in the product)
/// and a decoder serves one utterance at a time.
@Suite(.serialized)
struct RecognitionEngineTests {
    /// The recognizer every engine test uses, over the packaged en-US model.
    static let recognizer = PocketSphinxRecognizer(models: PocketSphinxModelRegistry(userDirectory: nil))
}
