import ParleyCore

/// The final result of an ended utterance, read from the decoder.
enum FinalResult {
    /// Text, confidence, deduplicated alternatives and words timed from the utterance's first frame.
    static func assemble(from decoder: Decoder, alternativeCount: Int) -> RecognitionResult {
        let text = ResultAssembly.normalized(decoder.hypothesis)
        guard !text.isEmpty else { return RecognitionResult(text: "", isFinal: true) }
        let segments = decoder.segments
        // n-best lists repeat hypotheses that differ only in pronunciation variants: ask for more.
        let hypotheses = decoder.bestHypotheses(limit: alternativeCount * 4 + 1)
        let words = ResultAssembly.words(from: segments, originFrame: segments.first?.startFrame ?? 0,
                                         framesPerSecond: DecoderConfiguration.framesPerSecond)
        return RecognitionResult(
            text: text,
            confidence: ResultAssembly.confidence(of: words, sentencePosterior: decoder.posterior),
            alternatives: ResultAssembly.alternatives(from: hypotheses, best: text, limit: alternativeCount),
            words: words,
            isFinal: true)
    }
}
