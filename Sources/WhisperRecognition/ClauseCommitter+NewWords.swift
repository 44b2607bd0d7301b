import ParleyCore

/// Which of a hypothesis's words are new, and where a decode left speech out.
extension ClauseCommitter {
    /// The first of `words` after which the detector heard `unwrittenSpeech` of speech that no
    /// word covers (from the word's longest end to the next word's start); nil when the decode
    /// left nothing out.
    static func wordAcrossGap(in words: [RecognizedWord], speech: SpeechTimeline) -> Int? {
        words.indices.dropLast().first { index in
            let longest = words[index].start + longestWord(letters: normalized(words[index].text).count)
            return speech.speech(from: longest, to: words[index + 1].start) >= unwrittenSpeech
        }
    }

    /// The words of a hypothesis not committed yet.
    func newWords(in words: [RecognizedWord]) -> [RecognizedWord] {
        guard let last = committed.last else { return words }
        var fresh = words.filter { ($0.start + $0.end) / 2 > last.end }
        // A window cut inside the last committed words can hear them again at its start.
        for count in stride(from: min(5, fresh.count, committed.count), through: 1, by: -1) {
            let head = fresh.prefix(count).map { Self.normalized($0.text) }
            let tail = committed.suffix(count).map { Self.normalized($0.text) }
            if head == tail, fresh.first.map({ $0.start < last.end + 1.0 }) == true {
                fresh.removeFirst(count)
                break
            }
        }
        // A window that starts inside the last committed word can hear a piece of it as a word
        // of its own: its end ("nd" of "and") begun before the committed word ended, or a piece
        // of two or three consonants no language writes as a word ("nd" after "woman"), begun
        // there or written first in the window wherever its alignment puts it: a piece's
        // alignment is no surer than the piece.
        if let first = fresh.first {
            let (head, tail) = (Self.normalized(first.text), Self.normalized(last.text))
            let begunInside = first.start < last.end + Self.fragmentSlack
            let opensWindow = first.start == words.first?.start
            if !head.isEmpty, begunInside && head.count < tail.count && tail.hasSuffix(head)
                || (begunInside || opensWindow) && Self.isConsonantPiece(head) {
                fresh.removeFirst()
            }
        }
        return fresh
    }
}
