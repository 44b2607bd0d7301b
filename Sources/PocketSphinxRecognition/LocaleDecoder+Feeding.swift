import ParleyCore
import Recognition

/// Feeding a request's utterance, on the decoder's thread.
///
/// Audio is fed in 10 ms steps so that the endpoint is found to the frame;
/// what follows the endpoint in the same chunk is kept for the next request
/// on the decoder.
extension LocaleDecoder {
    /// Samples fed to the decoder per step: one 10 ms frame.
    static let stepSamples = 160

    /// Feeds `samples` to `request`'s utterance; returns speech start, partial results,
    /// speech end and the final result. Throws `requestReused` when the request is over.
    func feed(_ samples: [Int16], for request: ObjectIdentifier) throws -> [RecognitionEvent] {
        guard isOwned(by: request) else { throw RecognitionError.requestReused }
        let audio = leftover + samples
        leftover = []
        var events: [RecognitionEvent] = []
        var offset = 0
        while offset < audio.count {
            let step = audio[offset..<min(offset + Self.stepSamples, audio.count)]
            offset = step.endIndex
            try live.process(step)
            let transition = utterance!.tracker.advance(by: step.count, inSpeech: live.inSpeech)
            // What follows the endpoint belongs to the next request, even when this one fails.
            if transition == .ended { leftover = Array(audio[offset...]) }
            if let final = try react(to: transition, events: &events) {
                return events + [.final(final)]
            }
        }
        if let partial = partialChange() { events.append(.partial(partial)) }
        return events
    }

    /// Ends `request`'s utterance now and returns the final result of everything heard.
    func finish(for request: ObjectIdentifier) throws -> RecognitionResult {
        guard isOwned(by: request) else { throw RecognitionError.requestReused }
        let result = conclude()
        guard !result.text.isEmpty else { throw RecognitionError.emptyRecognition }
        return result
    }

    /// Stops `request`'s utterance; the hypothesis so far, empty when the request was over.
    func cancel(for request: ObjectIdentifier) -> String {
        guard isOwned(by: request) else { return "" }
        let text = ResultAssembly.normalized(live.hypothesis)
        closeUtterance()
        return text
    }

    /// Acts on a tracker transition; returns the final result when the utterance ended.
    private func react(to transition: UtteranceTracker.Transition,
                       events: inout [RecognitionEvent]) throws -> RecognitionResult? {
        guard let current = utterance else { preconditionFailure("no utterance is open") }
        switch transition {
        case .none:
            return nil
        case .started:
            events.append(.speechStarted(at: current.tracker.seconds(current.tracker.position)))
            return nil
        case .ended:
            if let partial = partialChange() { events.append(.partial(partial)) }
            events.append(.speechEnded(at: current.tracker.seconds(current.tracker.position)))
            let result = conclude()
            guard !result.text.isEmpty else { throw RecognitionError.emptyRecognition }
            return result
        case .timedOut:
            closeUtterance()
            throw RecognitionError.speechTimeout(current.options.startTimeout ?? 0)
        case .tooLong:
            var result = conclude()
            result.isFinal = false
            throw RecognitionError.utteranceTooLong(limit: current.options.maximumDuration, partial: result)
        }
    }

    /// The hypothesis, when speech is on and it changed since the last partial result.
    private func partialChange() -> String? {
        guard let current = utterance, current.tracker.hasSpeech else { return nil }
        let text = ResultAssembly.normalized(live.hypothesis)
        guard !text.isEmpty, text != current.lastPartial else { return nil }
        utterance?.lastPartial = text
        return text
    }

    /// Ends the utterance and assembles its final result.
    private func conclude() -> RecognitionResult {
        let alternativeCount = utterance?.options.alternativeCount ?? 0
        closeUtterance()
        return FinalResult.assemble(from: live, alternativeCount: alternativeCount)
    }
}
