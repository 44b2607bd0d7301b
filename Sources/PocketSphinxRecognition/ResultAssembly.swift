import ParleyCore

/// Builds results from what the decoder reports: variant marks stripped,
/// fillers dropped, duplicates removed, times made relative to the utterance.
enum ResultAssembly {
    /// `was(2)` → `was`: the pronunciation variant mark is not part of the word.
    static func baseWord(_ word: String) -> String {
        guard word.hasSuffix(")"), let open = word.lastIndex(of: "("),
              word[word.index(after: open)..<word.index(before: word.endIndex)].allSatisfy(\.isNumber)
        else { return word }
        return String(word[..<open])
    }

    /// Silence, sentence marks and noises (`<sil>`, `</s>`, `[NOISE]`, `++UH++`) are not words.
    static func isFiller(_ word: String) -> Bool {
        word.isEmpty || word.hasPrefix("<") || word.hasPrefix("[") || word.hasPrefix("+")
    }

    /// A transcript with variant marks stripped and fillers dropped, single-spaced.
    static func normalized(_ text: String) -> String {
        text.split(separator: " ").map { baseWord(String($0)) }.filter { !isFiller($0) }.joined(separator: " ")
    }

    /// Up to `limit` transcripts from an n-best list, normalized, without `best`, empties or repeats.
    static func alternatives(from hypotheses: [String], best: String, limit: Int) -> [String] {
        var seen: Set<String> = [normalized(best)]
        var result: [String] = []
        for hypothesis in hypotheses.map(normalized) where result.count < limit {
            guard !hypothesis.isEmpty, seen.insert(hypothesis).inserted else { continue }
            result.append(hypothesis)
        }
        return result
    }

    /// The words among `segments`, timed in seconds from `originFrame`.
    static func words(from segments: [Segment], originFrame: Int, framesPerSecond: Int) -> [RecognizedWord] {
        segments.filter { !isFiller($0.word) }.map { segment in
            RecognizedWord(text: baseWord(segment.word),
                           start: Double(segment.startFrame - originFrame) / Double(framesPerSecond),
                           end: Double(segment.endFrame + 1 - originFrame) / Double(framesPerSecond),
                           confidence: segment.posterior)
        }
    }

    /// The utterance's confidence: the mean posterior of its words (`ps_seg_prob` with `-bestpath yes`).
    /// The posterior of the whole hypothesis (`ps_get_prob`) is used only when there are no word
    /// posteriors: it shrinks toward 0 as an utterance grows, so it ranks long sentences as unsure.
    static func confidence(of words: [RecognizedWord], sentencePosterior: Double) -> Double {
        guard !words.isEmpty else { return sentencePosterior }
        return words.map(\.confidence).reduce(0, +) / Double(words.count)
    }
}
