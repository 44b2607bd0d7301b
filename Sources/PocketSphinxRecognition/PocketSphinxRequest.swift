public import ParleyCore
import Synchronization

/// One utterance decoded by a locale's PocketSphinx decoder.
///
/// The request is only a name for its utterance: the utterance's state and
/// every decoder call live in the `LocaleDecoder` actor, on its thread. A
/// request that opens an utterance ends the one another request left open,
/// whose later calls then fail with `requestReused`.
public final class PocketSphinxRequest: RecognitionRequest, Sendable {
    private let decoder: LocaleDecoder
    private let options: RecognitionOptions
    /// The final result the utterance's end gave `append`: `finish()` answers with it again.
    private let endedWith = Mutex<RecognitionResult?>(nil)

    init(decoder: LocaleDecoder, options: RecognitionOptions) {
        self.decoder = decoder
        self.options = options
    }

    private var identity: ObjectIdentifier { ObjectIdentifier(self) }

    /// Opens the utterance on the decoder; `newStream` when the audio stream starts afresh.
    func open(newStream: Bool) async throws {
        try await decoder.open(for: identity, options: options, newStream: newStream)
    }

    /// Feeds 16 kHz mono audio; returns speech start, partial results, speech end and the final result.
    /// Throws `emptyRecognition` when the utterance ends with no word, `speechTimeout` and
    /// `utteranceTooLong` at the limits of `RecognitionOptions`, `requestReused` once over.
    public func append(_ chunk: PCMChunk) async throws -> [RecognitionEvent] {
        precondition(chunk.format == .recognition, "the recognizer decodes 16 kHz mono; convert audio before")
        let events = try await decoder.feed(chunk.samples, for: identity)
        for case let .final(result) in events { endedWith.withLock { $0 = result } }
        return events
    }

    /// Ends the utterance now and returns the final result of everything heard (the one
    /// `append` returned, when the utterance ended by itself).
    public func finish() async throws -> RecognitionResult {
        if let result = endedWith.withLock({ $0 }) { return result }
        return try await decoder.finish(for: identity)
    }

    /// Stops now and returns the hypothesis so far, not final; empty when the request was over.
    public func cancel() async -> RecognitionResult {
        RecognitionResult(text: await decoder.cancel(for: identity), isFinal: false)
    }
}
