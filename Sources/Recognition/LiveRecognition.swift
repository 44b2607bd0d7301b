public import ParleyCore

extension StreamingRecognizer {
    /// Recognizes utterance after utterance from a live `source` (the audio session, or a
    /// fake in tests) until its chunk stream ends, the task is cancelled, or `onEvent`
    /// returns false; an error `onEvent` throws ends it too and is thrown. Opens the
    /// source's gate at the start and closes it at the end.
    ///
    /// Speech still open when the chunks end is finished and reported; when the task is
    /// cancelled it is dropped.
    public func recognizeLive(from source: any AudioSource, locale: LocaleTag,
                              options: RecognitionOptions = RecognitionOptions(),
                              onEvent: (RecognitionEvent) async throws -> Bool) async throws {
        let continuous = try await ContinuousRecognition(recognizer: self, locale: locale, options: options)
        try await source.startListening()
        do {
            try await run(continuous, over: source.capturedChunks, onEvent: onEvent)
            await source.stopListening()
        } catch {
            await source.stopListening()
            throw error
        }
    }

    private func run(_ continuous: ContinuousRecognition, over chunks: AsyncStream<PCMChunk>,
                     onEvent: (RecognitionEvent) async throws -> Bool) async throws {
        for await chunk in chunks {
            guard !Task.isCancelled else {
                _ = await continuous.cancel()
                return
            }
            for event in try await continuous.feed(chunk) {
                guard try await onEvent(event) else {
                    _ = await continuous.cancel()
                    return
                }
            }
        }
        guard !Task.isCancelled else { return }
        for event in try await continuous.end() {
            _ = try await onEvent(event)
        }
    }
}
