/// Where an utterance longer than one encoder window is cut into windows.
///
/// Whisper's encoder hears at most 30 s. Stock `transcribe` (without timestamps)
/// decodes a longer recording in successive 30 s windows, cut wherever the 30 s
/// fall, mid-word or not. Parley cuts each window at the quietest 100 ms of its
/// last `searchSamples`, so that a word is not split between two windows, and
/// keeps each window to `maximumSamples`, so that a final decode's 3 s of
/// padding still fit in the encoder's 30 s.
enum WhisperWindows {
    /// The most audio one window holds: 27 s (with 3 s of padding, the encoder's 30 s).
    static let maximumSamples = 27 * 16_000
    /// How far back from `maximumSamples` a window may end: 5 s.
    static let searchSamples = 5 * 16_000
    /// The span whose energy is compared when looking for a pause: 100 ms.
    static let spanSamples = 1_600

    /// The windows of `audio`, in order, covering all of it without overlap: one window when
    /// it fits in `maximumSamples`.
    static func ranges(of audio: [Int16]) -> [Range<Int>] {
        var ranges: [Range<Int>] = []
        var start = 0
        while audio.count - start > maximumSamples {
            let end = quietestEnd(in: audio, from: start + maximumSamples - searchSamples, to: start + maximumSamples)
            ranges.append(start..<end)
            start = end
        }
        ranges.append(start..<audio.count)
        return ranges
    }

    /// The middle of the quietest `spanSamples` of `audio` between `lower` and `upper` (the
    /// later one on a tie, so a window is as long as it can be).
    static func quietestEnd(in audio: [Int16], from lower: Int, to upper: Int) -> Int {
        var best = upper, bestEnergy = Int64.max
        var position = lower
        while position + spanSamples <= upper {
            var energy: Int64 = 0
            for sample in audio[position..<(position + spanSamples)] { energy += Int64(sample) * Int64(sample) }
            if energy <= bestEnergy { (best, bestEnergy) = (position + spanSamples / 2, energy) }
            position += spanSamples / 2
        }
        return best
    }
}

extension WhisperAnswer {
    /// The answers of successive windows of one utterance as one answer: their texts joined
    /// with a space, word times moved by each window's start (`offsets`, in seconds), the mean
    /// confidence of the windows that heard speech, no alternatives (each window's are of its
    /// own part only). Silent when every window is; the first failed answer when one failed.
    static func joined(_ answers: [WhisperAnswer], offsets: [Double]) -> WhisperAnswer {
        if let failed = answers.first(where: { !$0.ok }) { return failed }
        let heard = answers.filter { $0.silent != true && !($0.text ?? "").isEmpty }
        var joined = WhisperAnswer(ok: true)
        joined.text = heard.compactMap(\.text).joined(separator: " ")
        joined.silent = heard.isEmpty
        joined.confidence = heard.isEmpty ? answers.first?.confidence
            : heard.compactMap(\.confidence).reduce(0, +) / Double(heard.count)
        joined.noSpeechProbability = answers.compactMap(\.noSpeechProbability).min()
        joined.alternatives = []
        joined.words = zip(answers, offsets).flatMap { answer, offset in
            (answer.words ?? []).map { Word(text: $0.text, start: $0.start + offset, end: $0.end + offset,
                                            confidence: $0.confidence) }
        }
        joined.window = answers.first?.window
        joined.hypotheses = joinedHypotheses(answers.compactMap(\.hypotheses))
        return joined
    }

    /// Pair readings of successive windows as one reading per language: texts joined, mean
    /// scores; a language is silent when all its windows are. Nil for no pair answers.
    private static func joinedHypotheses(_ windows: [[PairHypothesis]]) -> [PairHypothesis]? {
        guard let first = windows.first, windows.allSatisfy({ $0.count == first.count }) else { return nil }
        return first.indices.map { index in
            let readings = windows.map { $0[index] }
            let count = Double(readings.count)
            return PairHypothesis(language: readings[0].language,
                                  text: readings.filter { !$0.silent && !$0.text.isEmpty }.map(\.text).joined(separator: " "),
                                  silent: readings.allSatisfy(\.silent),
                                  averageLogProbability: readings.map(\.averageLogProbability).reduce(0, +) / count,
                                  languageProbability: readings.map(\.languageProbability).reduce(0, +) / count)
        }
    }
}

extension WhisperRecognizer {
    /// Whether `text` is one text of two words or more said twice over, compared in lower
    /// case without punctuation ("10 of clubs 10 of clubs"): the short window's loop that ends
    /// by itself (the worker cuts a loop only at its token limit). Such a reading is decoded
    /// again in the full window, as stock hears it, rather than cut: a person may say it twice.
    static func saidTwice(_ text: String) -> Bool {
        let words = text.lowercased().split(whereSeparator: \.isWhitespace)
            .map { $0.filter { $0.isLetter || $0.isNumber } }.filter { !$0.isEmpty }
        guard words.count >= 4, words.count.isMultiple(of: 2) else { return false }
        return words[..<(words.count / 2)] == words[(words.count / 2)...]
    }
}
