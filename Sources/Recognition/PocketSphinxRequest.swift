public import ParleyCore

/// One utterance decoded by a locale's PocketSphinx decoder.
///
/// Audio is fed in 10 ms steps so that the endpoint is found to the frame;
/// what follows the endpoint in the same chunk is kept for the next request
/// on the decoder. Every call runs on the decoder's thread, which also
/// confines this object's mutable state.
public final class PocketSphinxRequest: RecognitionRequest, @unchecked Sendable {
    private let decoder: LocaleDecoder
    private let options: RecognitionOptions
    // Touched only on the decoder's thread.
    private var tracker: UtteranceTracker
    private var lastPartial = ""
    private var isOver = false

    /// Samples fed to the decoder per step: one 10 ms frame.
    static let stepSamples = 160

    init(decoder: LocaleDecoder, options: RecognitionOptions) {
        self.decoder = decoder
        self.options = options
        tracker = UtteranceTracker(sampleRate: AudioFormat.recognition.sampleRate,
                                   startTimeout: options.startTimeout, maximumDuration: options.maximumDuration)
    }

    /// Opens the utterance on the decoder; `newStream` when the audio stream starts afresh.
    func open(newStream: Bool) async throws {
        try await decoder.perform { [self] state in
            try state.open(for: ObjectIdentifier(self), hint: options.hint, newStream: newStream)
        }
    }

    /// Feeds 16 kHz mono audio; returns speech start, partial results, speech end and the final result.
    /// Throws `emptyRecognition` when the utterance ends with no word, `speechTimeout` and
    /// `utteranceTooLong` at the limits of `RecognitionOptions`, `requestReused` once over.
    public func append(_ chunk: PCMChunk) async throws -> [RecognitionEvent] {
        precondition(chunk.format == .recognition, "the recognizer decodes 16 kHz mono; convert audio before")
        return try await decoder.perform { [self] state in try feed(chunk.samples, state) }
    }

    /// Ends the utterance now and returns the final result of everything heard.
    public func finish() async throws -> RecognitionResult {
        try await decoder.perform { [self] state in
            try claim(state)
            let result = conclude(state)
            guard !result.text.isEmpty else { throw RecognitionError.emptyRecognition }
            return result
        }
    }

    /// Stops now and returns the hypothesis so far, not final; empty when the request was over.
    public func cancel() async -> RecognitionResult {
        let text = try? await decoder.perform { [self] state -> String in
            guard !isOver, state.isOwned(by: ObjectIdentifier(self)) else { return "" }
            isOver = true
            let text = ResultAssembly.normalized(state.live.hypothesis)
            state.closeUtterance()
            return text
        }
        return RecognitionResult(text: text ?? "", isFinal: false)
    }

    // MARK: On the decoder's thread

    /// Marks the request over; throws `requestReused` when it already was.
    private func claim(_ state: DecoderState) throws {
        guard !isOver, state.isOwned(by: ObjectIdentifier(self)) else { throw RecognitionError.requestReused }
        isOver = true
    }

    private func feed(_ samples: [Int16], _ state: DecoderState) throws -> [RecognitionEvent] {
        guard !isOver, state.isOwned(by: ObjectIdentifier(self)) else { throw RecognitionError.requestReused }
        let audio = state.leftover + samples
        state.leftover = []
        var events: [RecognitionEvent] = []
        var offset = 0
        while offset < audio.count {
            let step = audio[offset..<min(offset + Self.stepSamples, audio.count)]
            offset = step.endIndex
            try state.live.process(step)
            let transition = tracker.advance(by: step.count, inSpeech: state.live.inSpeech)
            // What follows the endpoint belongs to the next request, even when this one fails.
            if transition == .ended { state.leftover = Array(audio[offset...]) }
            if let final = try react(to: transition, state: state, events: &events) {
                return events + [.final(final)]
            }
        }
        if let partial = partialChange(state) { events.append(.partial(partial)) }
        return events
    }

    /// Acts on a tracker transition; returns the final result when the utterance ended.
    private func react(to transition: UtteranceTracker.Transition, state: DecoderState,
                       events: inout [RecognitionEvent]) throws -> RecognitionResult? {
        switch transition {
        case .none:
            return nil
        case .started:
            events.append(.speechStarted(at: tracker.seconds(tracker.position)))
            return nil
        case .ended:
            if let partial = partialChange(state) { events.append(.partial(partial)) }
            events.append(.speechEnded(at: tracker.seconds(tracker.position)))
            isOver = true
            let result = conclude(state)
            guard !result.text.isEmpty else { throw RecognitionError.emptyRecognition }
            return result
        case .timedOut:
            isOver = true
            state.closeUtterance()
            throw RecognitionError.speechTimeout(options.startTimeout ?? 0)
        case .tooLong:
            isOver = true
            var result = conclude(state)
            result.isFinal = false
            throw RecognitionError.utteranceTooLong(limit: options.maximumDuration, partial: result)
        }
    }

    /// The hypothesis, when speech is on and it changed since the last partial result.
    private func partialChange(_ state: DecoderState) -> String? {
        guard tracker.hasSpeech else { return nil }
        let text = ResultAssembly.normalized(state.live.hypothesis)
        guard !text.isEmpty, text != lastPartial else { return nil }
        lastPartial = text
        return text
    }

    /// Ends the utterance and assembles its final result.
    private func conclude(_ state: DecoderState) -> RecognitionResult {
        state.closeUtterance()
        return FinalResult.assemble(from: state.live, alternativeCount: options.alternativeCount)
    }
}
