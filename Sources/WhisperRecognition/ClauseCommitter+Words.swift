import ParleyCore

/// The rules on a word's text that the committer decides by: whether two hypotheses agree on
/// a word, whether a word ends a sentence or a clause, or trails off.
extension ClauseCommitter {
    /// How many words, from the first, two hypotheses share: the same word, ending a
    /// sentence in both or in neither (a full stop only one of them heard is not agreed on).
    static func agreement(_ first: [RecognizedWord], _ second: [RecognizedWord]) -> Int {
        zip(first, second).prefix {
            normalized($0.text) == normalized($1.text) && endsSentence($0.text) == endsSentence($1.text)
        }.count
    }

    /// A word as compared between hypotheses: lowercased, without punctuation.
    static func normalized(_ word: String) -> String {
        String(word.lowercased().unicodeScalars.filter { $0.properties.isAlphabetic || $0.properties.numericType != nil }
            .map(Character.init))
    }

    /// Whether `key` (a normalized word) is two or three Latin consonants that are not an
    /// abbreviation: a piece of a word ("nd"), not a word ("Mr", "y" and "w" are words).
    static func isConsonantPiece(_ key: String) -> Bool {
        (2...3).contains(key.count) && !abbreviations.contains(key) && !["hmm", "shh", "nth", "pst"].contains(key)
            && key.unicodeScalars.allSatisfy { "bcdfghjklmnpqrstvwxz".unicodeScalars.contains($0) }
    }

    /// `fresh` without the phrases it copies from the committed text or from its own words
    /// before them (`copiedPhrase`), counted.
    mutating func withoutCopies(_ fresh: [RecognizedWord]) -> [RecognizedWord] {
        var words = fresh
        while let copy = Self.copiedPhrase(in: words, of: committed[...]) {
            words.removeSubrange(copy)
            copiedCount += copy.count
        }
        return words
    }

    /// The first run of `copiedPhraseWords` or more of `fresh` that the committed text, or
    /// `fresh` before the run, holds in a row, as long as it goes on; nil where there is none.
    /// Whisper, given the committed text as its prompt, writes a phrase of it again over what
    /// is not speech (a translation's echo, or what is left of it), and one decode can write a
    /// sentence of its own twice over it ("He was not of the opinion of his wife. He was not
    /// of the opinion of his wife."): that is not what the person said.
    static func copiedPhrase(in fresh: [RecognizedWord], of committed: ArraySlice<RecognizedWord>) -> Range<Int>? {
        let keys = fresh.map { normalized($0.text) }, said = committed.map { normalized($0.text) }
        let least = copiedPhraseWords
        guard keys.count >= least, said.count + keys.count >= 2 * least else { return nil }
        for start in 0...(keys.count - least) {
            // What came before the run: the committed text, then the decode's own words.
            let before = said + keys[..<start]
            var longest = 0
            for origin in before.indices {
                var length = 0
                while start + length < keys.count, origin + length < before.count, !keys[start + length].isEmpty,
                      keys[start + length] == before[origin + length] {
                    length += 1
                }
                longest = max(longest, length)
            }
            if longest >= least { return start..<(start + longest) }
        }
        return nil
    }

    /// Where the longest run of two or more of `fresh`'s last words begins that copies words of
    /// `committed` in a row: the first may be the end of a committed word, the last its start
    /// ("ill-" of "ill-disposed"). Nil when there is none.
    static func copiedRun(in fresh: [RecognizedWord], of committed: ArraySlice<RecognizedWord>) -> Int? {
        let keys = fresh.map { normalized($0.text) }, said = committed.map { normalized($0.text) }
        return keys.indices.dropLast().first { start in
            let run = keys[start...]
            guard !run.contains(where: \.isEmpty), run.count <= said.count else { return false }
            return (0...(said.count - run.count)).contains { origin in
                run.enumerated().allSatisfy { offset, key in
                    let word = said[origin + offset]
                    return word == key || (offset == 0 && word.hasSuffix(key))
                        || (offset == run.count - 1 && word.hasPrefix(key))
                }
            }
        }
    }

    /// Whether Whisper wrote `word` as cut off or trailing away.
    static func trailsOff(_ word: String) -> Bool {
        word.hasSuffix("...") || word.hasSuffix("…") || word.hasSuffix("-")
    }

    /// Where the first sentence of `words` starts (a sentence ends at a word that ends one, or
    /// with the words) whose median word confidence is under `leastTailConfidence`; nil when
    /// there is none. Words begun before `committedEnd` are left out of the median: the window
    /// starts inside the last committed word, so a word begun there is heard only in part (the
    /// last word of a sentence whose beginning was committed), and a sentence of nothing else
    /// is kept.
    static func firstDoubtfulSentence(in words: [RecognizedWord], committedEnd: Double = -.infinity) -> Int? {
        var start = 0
        while start < words.count {
            let end = (words[start...].firstIndex { endsSentence($0.text) } ?? words.count - 1) + 1
            let confidences = words[start..<end].filter { $0.start >= committedEnd }.map(\.confidence).sorted()
            if !confidences.isEmpty {
                let median = (confidences[(confidences.count - 1) / 2] + confidences[confidences.count / 2]) / 2
                if median < leastTailConfidence { return start }
            }
            start = end
        }
        return nil
    }

    /// Whether `word` ends a sentence: its last mark is one that ends sentences, and it is
    /// not an abbreviation of a title or an ellipsis.
    static func endsSentence(_ word: String) -> Bool {
        guard let last = word.trimmingTrailingQuotes.last else { return false }
        guard ".?!。？！".contains(last), !word.hasSuffix("...") else { return false }
        return last != "." || !abbreviations.contains(normalized(word))
    }

    /// Whether `word` ends with a comma, semicolon or colon (or their CJK forms).
    static func endsClause(_ word: String) -> Bool {
        guard let last = word.trimmingTrailingQuotes.last else { return false }
        return ",;:，、；：".contains(last)
    }

    /// Times a phrase of two words or more must be written whole in a row, at the end of a
    /// hypothesis, to be a loop (a single word: once more).
    static let loopRepeats = 3
    /// Words in a phrase that, written `loopRepeats` times anywhere in one hypothesis, is a
    /// loop that drifts ("how much easier was not an old scotsie, how much easier was not an
    /// old scotsie, much easier …").
    static let loopPhrase = 3

    /// Where a loop begins in `words`, or nil. Misled by an echo or noise, Whisper can write
    /// one phrase over and over ("have a husband or a husband or a husband or …"), and two
    /// decodes that loop alike agree on it. A loop is either a tail in which every word equals
    /// the word `period` before it (the last may be cut short), the phrase written whole
    /// `loopRepeats` times or more (one word: once more), where it begins after the phrase's
    /// first time; or a phrase of `loopPhrase` words written `loopRepeats` times apart, where
    /// it begins at its second time. People say "very very" or a sentence twice, rarely a
    /// phrase three times in one breath.
    static func loopStart(in words: [RecognizedWord]) -> Int? {
        let keys = words.map { normalized($0.text) }
        return [repeatingTail(keys), repeatedPhrase(keys)].compactMap { $0 }.min()
    }

    private static func repeatingTail(_ keys: [String]) -> Int? {
        let count = keys.count
        for start in 0..<count {
            for period in 1...max(1, (count - start) / loopRepeats) {
                let repeats = period == 1 ? loopRepeats + 1 : loopRepeats
                // Written whole `repeats` times; what follows repeats it too, its last word may be cut short.
                guard count - start >= period * repeats else { break }
                let last = count - 1
                let loops = (start + period..<last).allSatisfy { keys[$0] == keys[$0 - period] }
                    && !keys[last].isEmpty && keys[last - period].hasPrefix(keys[last])
                if loops { return start + period }
            }
        }
        return nil
    }

    private static func repeatedPhrase(_ keys: [String]) -> Int? {
        guard keys.count >= loopPhrase * loopRepeats else { return nil }
        var seen: [ArraySlice<String>: [Int]] = [:]
        for start in 0...(keys.count - loopPhrase) {
            let phrase = keys[start..<(start + loopPhrase)]
            guard !phrase.contains(where: \.isEmpty) else { continue }
            var times = seen[phrase, default: []]
            guard times.last.map({ start >= $0 + loopPhrase }) ?? true else { continue }
            times.append(start)
            if times.count == loopRepeats { return times[1] }
            seen[phrase] = times
        }
        return nil
    }

    /// Titles and abbreviations written with a full stop that Whisper puts before a name or a
    /// word in the languages Parley hears most: their stop ends no sentence.
    static let abbreviations: Set<String> = [
        "mr", "mrs", "ms", "dr", "st", "jr", "sr", "prof", "vs", "etc", "eg", "ie", "no", "mt",
        "sra", "srta", "dra", "ud", "uds", "mme", "mlle", "m", "hr", "fr", "frau", "sig", "dott",
    ]
}

extension String {
    /// The word without closing quotes and brackets after its last letter or mark.
    fileprivate var trimmingTrailingQuotes: Substring {
        var end = endIndex
        while end > startIndex, "\"'”’»)]".contains(self[index(before: end)]) { end = index(before: end) }
        return self[..<end]
    }
}
