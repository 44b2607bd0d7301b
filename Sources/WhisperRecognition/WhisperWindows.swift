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

extension WhisperTranscription {
    /// The answers of successive windows of one utterance as one answer: their texts joined
    /// with a space, word times moved by each window's start (`offsets`, in seconds), the mean
    /// confidence of the windows that heard speech, no alternatives (each window's are of its
    /// own part only). Silent when every window is.
    static func joined(_ answers: [WhisperTranscription], offsets: [Double]) -> WhisperTranscription {
        let heard = answers.filter(\.heard)
        var joined = WhisperTranscription()
        joined.text = heard.map(\.text).joined(separator: " ")
        joined.silent = heard.isEmpty
        joined.confidence = heard.isEmpty ? answers.first?.confidence ?? 0
            : heard.map(\.confidence).reduce(0, +) / Double(heard.count)
        joined.noSpeechProbability = answers.map(\.noSpeechProbability).min() ?? 0
        joined.words = zip(answers, offsets).flatMap { answer, offset in
            answer.words.map { Word(text: $0.text, start: $0.start + offset, end: $0.end + offset, confidence: $0.confidence) }
        }
        joined.window = answers.first?.window ?? .short
        joined.secondOpinion = answers.contains(where: \.secondOpinion)
        joined.decodes = answers.flatMap(\.decodes)
        joined.audioSeconds = answers.map(\.audioSeconds).reduce(0, +)
        joined.languageShares = answers.last?.languageShares
        return joined
    }
}

extension WhisperPairAnswer {
    /// Pair readings of successive windows as one reading per language: texts joined, mean
    /// scores; a language is silent when all its windows are.
    static func joined(_ windows: [WhisperPairAnswer]) -> WhisperPairAnswer {
        let first = windows[0]
        let hypotheses = first.hypotheses.indices.map { index in
            let readings = windows.compactMap { $0.hypotheses.indices.contains(index) ? $0.hypotheses[index] : nil }
            let count = Double(readings.count)
            return Reading(language: readings[0].language,
                           text: readings.filter { !$0.silent && !$0.text.isEmpty }.map(\.text).joined(separator: " "),
                           silent: readings.allSatisfy(\.silent), skipped: readings.allSatisfy(\.skipped),
                           averageLogProbability: readings.map(\.averageLogProbability).reduce(0, +) / count,
                           confidence: readings.map(\.confidence).reduce(0, +) / count,
                           languageProbability: readings.map(\.languageProbability).reduce(0, +) / count,
                           noSpeechProbability: readings.map(\.noSpeechProbability).min() ?? 0)
        }
        return WhisperPairAnswer(hypotheses: hypotheses, window: first.window,
                                 secondOpinion: windows.contains(where: \.secondOpinion),
                                 decodes: windows.flatMap(\.decodes), seconds: [:],
                                 audioSeconds: windows.map(\.audioSeconds).reduce(0, +))
    }
}
