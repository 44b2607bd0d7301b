import ParleyCore

/// The committer's tuning: the times and counts its rules decide by (`ClauseCommitter`).
extension ClauseCommitter {
    /// Shortest gap between words that ends a clause of `clauseWords` or more.
    public static let clausePause = 0.25
    /// Fewest committed words a pause, a comma or a cut may end a clause after.
    public static let clauseWords = 3
    /// The longest a clause's committed words may span, in seconds, before it is cut: the
    /// listener hears nothing of a clause until it ends.
    public static let longestClause = 3.0
    /// Audio heard past a word, with no word in it, that counts as a pause when the detector
    /// hears silence there too: the clause pause and the time a decode takes to show a next
    /// word that has begun. Without the detector's word, a decode that stops early (Whisper
    /// sometimes ends a window's text a few words in) would end clauses where none was.
    public static let trailingPause = 0.6
    /// How long before the end of the audio, with speech still heard, a hypothesis may end
    /// before LocalAgreement sets it aside as stopped early.
    public static let earlyStop = 1.0
    /// How far before the end of the audio an aligned word must end for AlignAtt to commit it,
    /// unless the committer is given another.
    public static let defaultAlignAttMargin = 1.0
    /// The longest window a decode hears before it slides without a clause end.
    public static let longestWindow = 12.0
    /// How much before a clause's last aligned end the window starts: alignments end late
    /// as often as early, and a word cut at its start is lost, where one cut at its end is
    /// only heard again (and dropped as a repeat).
    public static let windowLead = 0.1
    /// How far past the last committed word's end a word written as a piece of it may begin
    /// and still be taken as that word heard again: the alignment's own slack.
    public static let fragmentSlack = 0.05
    /// The least speech a letter of a tail's word takes, in seconds: 25 letters a second,
    /// faster than anyone speaks (careful speech is 10–15).
    public static let shortestLetter = 0.04
    /// The least speech a letter of words said again takes, in seconds: 17 letters a second,
    /// a fast speaker's pace (the LibriVox readers say 11–13, pauses left out).
    public static let spokenLetter = 0.06
    /// The least median word confidence of a tail's sentence once words are committed before
    /// it (`finish`): over the echo of the clauses already spoken, Whisper writes English it
    /// barely believes (medians of 0.0–0.2 in the loopback room), where the speaker's own
    /// last sentence reads near 0.9.
    public static let leastTailConfidence = 0.4
    /// How many committed words the prompt carries at most.
    public static let promptWords = 40
    /// The fewest words in a row that, written again as the committed text or the decode before
    /// them has them, are taken for a copy over audio without them (`copiedPhrase`): four, where a person
    /// going on says two or three words again ("to be", "not an ill-") far more often.
    public static let copiedPhraseWords = 4
    /// Speech heard past a word's longest length, before the next word, that shows the decode
    /// wrote nothing for what was said there: two or three words, where a slow word or an
    /// alignment a little late is well under it, and the detector's hangover 0.2 s.
    public static let unwrittenSpeech = 1.0

    /// The longest a word of `letters` letters is taken to last, in seconds: 0.3 s and 0.12 s
    /// a letter, half again as slow as careful speech.
    public static func longestWord(letters: Int) -> Double { 0.3 + 0.12 * Double(letters) }

    /// The least speech `words` take to say: `shortestLetter` a letter.
    static func shortestLength(of words: ArraySlice<RecognizedWord>) -> Double {
        Double(letters(in: words)) * shortestLetter
    }

    /// The speech `words` take at a speaker's pace: `spokenLetter` a letter.
    static func spokenLength(of words: ArraySlice<RecognizedWord>) -> Double {
        Double(letters(in: words)) * spokenLetter
    }

    private static func letters(in words: ArraySlice<RecognizedWord>) -> Int {
        words.reduce(0) { $0 + normalized($1.text).count }
    }
}
