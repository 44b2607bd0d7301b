public import ParleyCore

extension StreamingRecognizer {
    /// Samples fed per step when decoding a file (64 ms, as a capture callback would deliver).
    public static var fileChunkSamples: Int { 2048 }

    /// Recognizes every utterance in an audio file (any format libsndfile reads, any rate and
    /// channel count), calling `onEvent` with each event as it happens; returns the final results.
    /// The file is read and converted block by block while the recognizer works.
    @discardableResult
    public func transcribeFile(_ path: String, locale: LocaleTag, options: RecognitionOptions = RecognitionOptions(),
                               onEvent: (RecognitionEvent) throws -> Void = { _ in }) async throws -> [RecognitionResult] {
        try await transcribe(AudioFileStream(path: path), locale: locale, options: options, onEvent: onEvent)
    }

    /// Recognizes every utterance of an opened audio file, read as the recognizer goes.
    /// An error `onEvent` throws ends the recognition and is thrown.
    @discardableResult
    public func transcribe(_ stream: AudioFileStream, locale: LocaleTag, options: RecognitionOptions = RecognitionOptions(),
                           onEvent: (RecognitionEvent) throws -> Void = { _ in }) async throws -> [RecognitionResult] {
        try await transcribeChunks(locale: locale, options: options, onEvent: onEvent) {
            try stream.next(samples: Self.fileChunkSamples)
        }
    }

    /// Recognizes every utterance in 16 kHz mono `audio`, fed in capture-sized chunks.
    /// An utterance past `options.maximumDuration` is cut there: what was recognized of it is
    /// delivered as a `.final` whose result has `isFinal == false`, and recognition goes on.
    @discardableResult
    public func transcribe(_ audio: PCMChunk, locale: LocaleTag, options: RecognitionOptions = RecognitionOptions(),
                           onEvent: (RecognitionEvent) throws -> Void = { _ in }) async throws -> [RecognitionResult] {
        var start = 0
        return try await transcribeChunks(locale: locale, options: options, onEvent: onEvent) {
            guard start < audio.samples.count else { return nil }
            let end = min(start + Self.fileChunkSamples, audio.samples.count)
            defer { start = end }
            return PCMChunk(format: .recognition, samples: Array(audio.samples[start..<end]))
        }
    }

    /// Feeds the chunks `next` gives until it gives nil, then ends the last utterance.
    private func transcribeChunks(locale: LocaleTag, options: RecognitionOptions, onEvent: (RecognitionEvent) throws -> Void,
                                  next: () throws -> PCMChunk?) async throws -> [RecognitionResult] {
        let continuous = try await ContinuousRecognition(recognizer: self, locale: locale, options: options)
        var results: [RecognitionResult] = []
        func handle(_ events: [RecognitionEvent]) throws {
            for event in events {
                try onEvent(event)
                if case let .final(result) = event { results.append(result) }
            }
        }
        while let chunk = try next() {
            do {
                try handle(try await continuous.feed(chunk))
            } catch let RecognitionError.utteranceTooLong(_, partial) {
                try handle([.final(partial)])
            }
        }
        try handle(try await continuous.end())
        return results
    }
}
