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

    /// Whether Whisper wrote `word` as cut off or trailing away.
    static func trailsOff(_ word: String) -> Bool {
        word.hasSuffix("...") || word.hasSuffix("…") || word.hasSuffix("-")
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
