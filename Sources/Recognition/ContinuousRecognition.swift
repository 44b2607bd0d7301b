public import ParleyCore

/// A recognizer whose requests can continue one audio stream: the audio
/// after one utterance's endpoint, and the noise estimate, carry over to the
/// next request.
public protocol StreamingRecognizer: SpeechRecognizer {
    /// Starts a request; `newStream` when its audio does not continue the previous request's.
    func makeRequest(locale: LocaleTag, options: RecognitionOptions, newStream: Bool) async throws -> any RecognitionRequest
}

/// Recognizes utterance after utterance in one audio stream, as
/// `pocketsphinx_continuous` does: each endpoint yields a final result and the
/// next request starts on the same decoder, without restarting the stream.
///
/// ```swift
/// let continuous = try await ContinuousRecognition(recognizer: recognizer, locale: locale, options: options)
/// for chunk in chunks { handle(try await continuous.feed(chunk)) }
/// handle(try await continuous.end())
/// ```
///
/// Utterances with no recognized word (a noise the voice activity detector
/// took for speech) are skipped. `speechTimeout` and `utteranceTooLong` are
/// thrown; recognition can go on after them with the next `feed`.
public final class ContinuousRecognition {
    private let recognizer: any StreamingRecognizer
    private let locale: LocaleTag
    private let options: RecognitionOptions
    private var request: (any RecognitionRequest)?

    /// Starts on a new audio stream (PocketSphinx: `ps_start_stream`; Whisper: a new detector).
    public init(recognizer: any StreamingRecognizer, locale: LocaleTag, options: RecognitionOptions) async throws {
        self.recognizer = recognizer
        self.locale = locale
        self.options = options
        request = try await recognizer.makeRequest(locale: locale, options: options, newStream: true)
    }

    /// Feeds 16 kHz mono audio; returns its events, with a `.final` for each utterance it ended.
    public func feed(_ chunk: PCMChunk) async throws -> [RecognitionEvent] {
        let current = try await currentRequest()
        do {
            let events = try await current.append(chunk)
            if events.contains(where: \.isFinal) { request = nil }
            return events
        } catch RecognitionError.emptyRecognition {
            request = nil
            return []
        } catch {
            request = nil
            throw error
        }
    }

    /// No more audio: the final result of an utterance still open, if it had words.
    public func end() async throws -> [RecognitionEvent] {
        guard let current = request else { return [] }
        request = nil
        do {
            return [.final(try await current.finish())]
        } catch RecognitionError.emptyRecognition {
            return []
        }
    }

    /// Stops now; the hypothesis of the open utterance, if any.
    public func cancel() async -> RecognitionResult? {
        guard let current = request else { return nil }
        request = nil
        return await current.cancel()
    }

    private func currentRequest() async throws -> any RecognitionRequest {
        if let request { return request }
        let next = try await recognizer.makeRequest(locale: locale, options: options, newStream: false)
        request = next
        return next
    }
}

extension RecognitionEvent {
    /// Whether this is the final result of an utterance.
    public var isFinal: Bool {
        if case .final = self { return true }
        return false
    }
}
