public import ParleyCore

extension StreamingRecognizer {
    /// Samples fed per step when decoding a file (64 ms, as a capture callback would deliver).
    public static var fileChunkSamples: Int { 2048 }

    /// Recognizes every utterance in an audio file (any format libsndfile reads, any rate and
    /// channel count), calling `onEvent` with each event as it happens; returns the final results.
    @discardableResult
    public func transcribeFile(_ path: String, locale: LocaleTag, options: RecognitionOptions = RecognitionOptions(),
                               onEvent: (RecognitionEvent) -> Void = { _ in }) async throws -> [RecognitionResult] {
        let audio = try AudioFileReader.read(path)
        return try await transcribe(audio, locale: locale, options: options, onEvent: onEvent)
    }

    /// Recognizes every utterance in 16 kHz mono `audio`, fed in capture-sized chunks.
    /// An utterance past `options.maximumDuration` is cut there: what was recognized of it is
    /// delivered as a `.final` whose result has `isFinal == false`, and recognition goes on.
    @discardableResult
    public func transcribe(_ audio: PCMChunk, locale: LocaleTag, options: RecognitionOptions = RecognitionOptions(),
                           onEvent: (RecognitionEvent) -> Void = { _ in }) async throws -> [RecognitionResult] {
        let continuous = try await ContinuousRecognition(recognizer: self, locale: locale, options: options)
        var results: [RecognitionResult] = []
        func handle(_ events: [RecognitionEvent]) {
            for event in events {
                onEvent(event)
                if case let .final(result) = event { results.append(result) }
            }
        }
        for start in stride(from: 0, to: audio.samples.count, by: Self.fileChunkSamples) {
            let end = min(start + Self.fileChunkSamples, audio.samples.count)
            let chunk = PCMChunk(format: .recognition, samples: Array(audio.samples[start..<end]))
            do {
                handle(try await continuous.feed(chunk))
            } catch let RecognitionError.utteranceTooLong(_, partial) {
                handle([.final(partial)])
            }
        }
        handle(try await continuous.end())
        return results
    }
}
