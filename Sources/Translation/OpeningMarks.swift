/// Spanish-style opening marks: `¿` before a question clause, `¡` before an exclamation.
///
/// A clause ends at its closing mark. It starts at the text's start or after
/// the previous sentence's end (`.`, `?`, `!`), unless a comma, semicolon or
/// colon in between is followed by a clause-word ("Buenas tardes, cómo está
/// usted?" → "Buenas tardes, ¿cómo está usted?"): then it starts there. A
/// clause that already has its opening mark is left alone.
struct OpeningMarks {
    var marks: [Character: Character]
    var clauseWords: [String]

    static let sentenceEnds: Set<Character> = [".", "?", "!", "…"]
    static let clauseBreaks: Set<Character> = [",", ";", ":"]

    func apply(to text: String) -> String {
        var characters = Array(text)
        var index = 0
        var sentenceStart = 0
        while index < characters.count {
            let character = characters[index]
            if let opening = marks[character] {
                let start = clauseStart(in: characters, from: sentenceStart, to: index)
                if !characters[start..<index].contains(opening) {
                    characters.insert(opening, at: start)
                    index += 1
                }
            }
            if endsSentence(characters, at: index) { sentenceStart = index + 1 }
            index += 1
        }
        return String(characters)
    }

    /// A closing mark always ends a sentence; `.` and `…` only before a blank or the end ("3.5" does not).
    private func endsSentence(_ characters: [Character], at index: Int) -> Bool {
        if marks[characters[index]] != nil { return true }
        guard Self.sentenceEnds.contains(characters[index]) else { return false }
        return index + 1 == characters.count || characters[index + 1].isWhitespace
    }

    /// Where the clause ending at `end` starts: after the sentence's last clause break
    /// followed by a clause-word, else at the sentence's first non-blank character.
    private func clauseStart(in characters: [Character], from sentenceStart: Int, to end: Int) -> Int {
        var start = sentenceStart
        while start < end, characters[start].isWhitespace { start += 1 }
        for position in stride(from: end - 1, through: start, by: -1) where Self.clauseBreaks.contains(characters[position]) {
            var wordStart = position + 1
            while wordStart < end, characters[wordStart].isWhitespace { wordStart += 1 }
            if startsWithClauseWord(String(characters[wordStart..<end])) { return wordStart }
        }
        return start
    }

    private func startsWithClauseWord(_ text: String) -> Bool {
        let lowered = text.lowercased()
        return clauseWords.contains { word in
            lowered.hasPrefix(word) && (lowered.count == word.count
                || !lowered[lowered.index(lowered.startIndex, offsetBy: word.count)].isLetter)
        }
    }
}
