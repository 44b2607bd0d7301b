public import ParleyCore

/// Decides, from the successive hypotheses of an utterance that is still being spoken, which
/// words are committed and where clauses end; and which audio no decode needs again.
///
/// The recognizer decodes a window of the utterance (from `windowStart` to what it has heard)
/// with `prompt` before it, and hands the hypothesis to `hypothesis(_:heardUntil:)`. Times are
/// seconds on the utterance's own axis throughout.
///
/// - **Commit policy.** `CommitPolicy.localAgreement`: the words two successive hypotheses
///   agree on, from the first uncommitted word on (LocalAgreement-2). `.alignAtt`: the words
///   of one hypothesis whose aligned end lies at least `alignAttMargin` before the end of the
///   audio heard, in order, stopping at the first that does not.
/// - **Clauses.** A clause ends after a committed word that ends a sentence (`.`, `?`, `!`
///   and their CJK forms); after at least `clauseWords` committed words, at a comma,
///   semicolon or colon, or at a pause of at least `clausePause`: a pause the hypothesis
///   shows as a gap before its next word, or as audio heard past the word with no word in
///   it. A clause whose committed words span `longestClause` with none of these is cut after
///   its last committed word of four letters or more (short words are mostly articles,
///   prepositions and conjunctions, which open a phrase rather than close one; a language
///   written without spaces has few such words, and its clauses are not cut).
/// - **The window slides.** When a clause ends, the next decode starts just before the end of
///   its last word, or before the start of the word after it when that is sooner, and the
///   committed text before the window becomes the prompt. A window that grows past
///   `longestWindow` slides to its last committed word as well.
/// - **A decode that stopped early is set aside.** Whisper sometimes ends a window's text a
///   few words in, with low confidence, most often in a window that starts inside a
///   sentence. Under LocalAgreement, a hypothesis whose last word ends more than
///   `earlyStop` before the end of the audio while the detector still hears speech is
///   neither agreed with nor kept: the next one is compared with the last whole one.
/// - **A last word stretched to the end of the audio is cut back.** While the person goes
///   on, the alignment of a hypothesis's last word often takes in the speech after it that
///   the decode did not write (one read "… still more" with "more" lasting until the words
///   after it had been said). Its end is taken as at most `longestWord` for its letters:
///   a window that slid to the stretched end, or words dropped as lying before it, would
///   lose what was said there; and a hypothesis that stopped early then reads as such.
/// - **A decode that left speech out is cut where it did.** A word's aligned time runs until
///   the next word begins, so where a decode wrote nothing for speech it heard (it stopped a
///   few words in, or left a stretch out), the word before the gap is aligned across it: one
///   read "to do" for 5.8 s of "to do for them. He was not …", "to" lasting 5.7 s and "do"
///   at the end. Where the detector heard at least `unwrittenSpeech` of speech past a word's
///   longest length (`longestWord`) and before the next word, the hypothesis is taken as its
///   words before that one, whose own end is not known. Taken whole, its later words would
///   be committed seconds late, and the words said in the gap, lying before them, would read
///   as committed already and never be. The cut hypothesis mostly reads as stopped early.
///   The decodes after it go without the prompt until one commits words: Whisper leaves
///   speech out most after a prompt, and decodes the same window whole far more often without
///   one. (Given the prompt back at once, decodes can alternate: with the prompt, the same
///   few words misheard, the echo of a translation read as English; without it, the speech;
///   no two in a row agree, and nothing is committed until the endpoint.) (A decode that
///   merely stopped early keeps the prompt for the next: without it, Whisper writes again
///   the end of the word the window starts in, "fish" of "selfish", and successive decodes
///   agree later.) At the endpoint, `commitBeforeGap` commits the final decode's words
///   before the gap and slides the window to it, for the rest to be decoded again without
///   the prompt.
/// - **No tail the speech cannot hold.** At the endpoint, the final decode's new words are
///   kept only as far as the speech heard after the committed words can hold them, and words
///   that copy the committed text only where it holds them at a fast speaker's pace.
/// - **No tail the decoder barely believed.** Once words are committed, the tail's sentences
///   from the first whose median word confidence is under `leastTailConfidence` are dropped
///   (a word begun inside the last committed word, heard only in part, does not count):
///   with loudspeakers, the last window holds the echo of the clauses already spoken, and
///   Whisper, told to write English, writes it as English it hardly believes ("Inclusively,
///   he has a lot of power." for "Incluso podría…").
/// - **No loops.** A hypothesis that writes one phrase over and over is cut where the loop
///   begins (`loopStart`): the cut hypothesis reads as stopped early.
/// - **Nothing twice.** A hypothesis's words that lie before the last committed word's end,
///   or that repeat the committed text's last words at its start, are not new; nor is a first
///   word that is a piece of the last committed word (a window cut inside a word): its end,
///   begun inside it, or two or three consonants, begun inside it or written first in the
///   window. Nor is a phrase of four words or more that
///   the committed text, or the decode's own words before it, already hold (`copiedPhrase`):
///   the prompt, or a sentence of the decode, written again over a translation's echo, not
///   the person.
public struct ClauseCommitter: Sendable {
    public let policy: CommitPolicy
    /// AlignAtt's margin, in seconds.
    public let alignAttMargin: Double
    /// Every committed word, in order.
    public private(set) var committed: [RecognizedWord] = []
    /// How many committed words belong to clauses already handed on.
    public private(set) var closedCount = 0
    /// Where the next decode's audio starts.
    public private(set) var windowStart = 0.0
    /// The newest hypothesis's words after the committed ones.
    public private(set) var pending: [RecognizedWord] = []
    /// Clauses handed on so far.
    public private(set) var clauses: [RecognizedClause] = []
    /// How many hypotheses were set aside as stopped early.
    public private(set) var stoppedEarlyCount = 0
    /// How many decodes were cut where they left speech out.
    public private(set) var gapCount = 0
    /// How many decodes were cut where they began to loop (`loopStart`).
    public private(set) var loopCount = 0
    /// How many words of the tail were dropped as more than the speech after the committed
    /// words holds (`finish`).
    public private(set) var unheardCount = 0
    /// How many words of the tail were dropped as sentences the decoder barely believed
    /// (`finish`, `leastTailConfidence`).
    public private(set) var doubtedCount = 0
    /// How many words were dropped as phrases written again (`copiedPhrase`).
    public internal(set) var copiedCount = 0
    /// Whether a decode left speech out in a gap (`wordAcrossGap`) and no words were committed
    /// since: decodes go without the prompt until some are.
    public private(set) var leftSpeechOut = false

    public init(policy: CommitPolicy, alignAttMargin: Double = ClauseCommitter.defaultAlignAttMargin) {
        self.policy = policy
        self.alignAttMargin = alignAttMargin
    }

    /// The committed text before the window: what the next decode is told came before.
    public var prompt: String? {
        guard !leftSpeechOut else { return nil }
        let before = committed.prefix { $0.end <= windowStart + Self.windowLead + 0.001 }
        guard !before.isEmpty else { return nil }
        return RecognizedWord.line(before.suffix(Self.promptWords).map(\.text))
    }

    /// The open clause as shown while the person speaks: its committed words, then those
    /// not committed yet.
    public var display: String {
        RecognizedWord.line((committed[closedCount...] + pending).map(\.text))
    }

    /// Takes one decode's words (times on the utterance's axis) of audio heard until
    /// `heardUntil`; returns the clauses this closes, each with `committedAt`.
    /// `silent`: the detector heard silence at the end of the decoded audio; `speech`: where
    /// it heard speech in the utterance.
    public mutating func hypothesis(_ heardWords: [RecognizedWord], heardUntil: Double, silent: Bool = false,
                                    speech: SpeechTimeline = SpeechTimeline()) -> [RecognizedClause] {
        var words = heardWords
        if let loop = Self.loopStart(in: words) {
            words = Array(words[..<loop])
            loopCount += 1
        }
        let gap = Self.wordAcrossGap(in: words, speech: speech)
        if let gap {
            words = Array(words[..<gap])
            gapCount += 1
            leftSpeechOut = true
        }
        if !silent, var last = words.last {
            last.end = min(last.end, last.start + Self.longestWord(letters: Self.normalized(last.text).count))
            words[words.count - 1] = last
        }
        if policy == .localAgreement, !silent, heardUntil - (words.last?.end ?? windowStart) > Self.earlyStop {
            stoppedEarlyCount += 1
            return []
        }
        let fresh = withoutCopies(newWords(in: words))
        var agreed: Int
        switch policy {
        case .localAgreement:
            // The first hypothesis has nothing pending to agree with.
            agreed = Self.agreement(pending, fresh)
        case .alignAtt:
            agreed = fresh.prefix { $0.end <= heardUntil - alignAttMargin }.count
        }
        // A word Whisper wrote as trailing off ("then...", "dis-") is where it heard the
        // window end, not what was said: nothing from it on is committed.
        agreed = min(agreed, fresh.firstIndex(where: { Self.trailsOff($0.text) }) ?? agreed)
        committed += fresh.prefix(agreed)
        if agreed > 0 && gap == nil { leftSpeechOut = false }
        pending = Array(fresh.dropFirst(agreed))
        return closeClauses(heardUntil: heardUntil, silent: silent, atEnd: false)
    }

    /// Whether the endpoint's decode `words` left speech out (`wordAcrossGap`). If so, commits
    /// its words before the gap and slides the window to it, and the next decode goes without
    /// the prompt; true when that decode would hear other audio or another prompt, for the
    /// request to decode the rest again.
    public mutating func commitBeforeGap(in words: [RecognizedWord], speech: SpeechTimeline) -> Bool {
        guard let gap = Self.wordAcrossGap(in: words, speech: speech) else { return false }
        let (window, prompted) = (windowStart, prompt != nil)
        gapCount += 1
        committed += newWords(in: Array(words[..<gap]))
        pending = []
        if let last = committed.last { slideWindow(after: last, next: words[gap]) }
        leftSpeechOut = true
        return windowStart > window + 0.001 || prompted
    }

    /// The endpoint: the final decode's words of the last window are the tail. Returns every
    /// clause not handed on yet (the committed words of an open clause and the tail), each
    /// marked `isTail`: they were committed at the endpoint.
    ///
    /// With `speech`, the tail's new words must fit the speech the detector heard after the
    /// committed words, at `shortestLetter` a letter: a last window that holds little more than
    /// the end of a committed word, decoded after the committed text as its prompt, is
    /// sometimes written as that text again ("… amiable himself. an ill-disposed young man."
    /// in 0.3 s). Words at the tail's end that copy two or more committed words in a row ("not
    /// an ill-" of "not an ill-disposed") must fit at `spokenLetter` a letter, a fast
    /// speaker's pace: a person says a phrase again in about the time it took, a copy of the
    /// prompt takes none.
    /// New words past what fits are not what was said, nor the words of the sentence they
    /// continue: the tail is kept to its last sentence end.
    public mutating func finish(tail words: [RecognizedWord], heardUntil: Double,
                                speech: SpeechTimeline? = nil) -> [RecognizedClause] {
        var fresh = withoutCopies(newWords(in: Self.loopStart(in: words).map { Array(words[..<$0]) } ?? words))
        if let speech {
            let heard = speech.speech(from: committed.last?.end ?? windowStart, to: heardUntil)
            let count = fresh.count
            while !fresh.isEmpty, Self.shortestLength(of: fresh[...]) > heard {
                fresh.removeLast()
            }
            // Words that copy the committed text must fit at a fast speaker's pace.
            if let copy = Self.copiedRun(in: fresh, of: committed.suffix(Self.promptWords)) {
                let after = copy > 0 ? fresh[copy - 1].end : (committed.last?.end ?? windowStart)
                if Self.spokenLength(of: fresh[copy...]) > speech.speech(from: after, to: heardUntil) {
                    fresh.removeLast(fresh.count - copy)
                }
            }
            // Nor is the sentence they continue: the tail is kept to its last sentence end.
            if fresh.count < count {
                fresh = Array(fresh.prefix((fresh.lastIndex { Self.endsSentence($0.text) } ?? -1) + 1))
            }
            unheardCount += count - fresh.count
        }
        // Once words are committed, the tail may be the echo of their clauses: from the first
        // sentence the decoder barely believed on, it is not what the speaker said.
        if let last = committed.last, let doubtful = Self.firstDoubtfulSentence(in: fresh, committedEnd: last.end) {
            doubtedCount += fresh.count - doubtful
            fresh.removeLast(fresh.count - doubtful)
        }
        committed += fresh
        pending = []
        return closeClauses(heardUntil: heardUntil, silent: true, atEnd: true)
    }

    private mutating func closeClauses(heardUntil: Double, silent: Bool, atEnd: Bool) -> [RecognizedClause] {
        var closed: [RecognizedClause] = []
        var index = closedCount
        while index < committed.count {
            let word = committed[index]
            let count = index - closedCount + 1
            let next = index + 1 < committed.count ? committed[index + 1] : pending.first
            let gap = next.map { $0.start - word.end } ?? (silent && heardUntil - word.end >= Self.trailingPause ? Self.trailingPause : 0)
            if Self.endsSentence(word.text)
                || (count >= Self.clauseWords && (gap >= Self.clausePause || Self.endsClause(word.text))) {
                closed.append(close(through: index, heardUntil: heardUntil, isTail: atEnd))
            }
            index += 1
        }
        if !atEnd, let cut = longClauseCut() {
            closed.append(close(through: cut, heardUntil: heardUntil, isTail: false))
        }
        if atEnd, closedCount < committed.count {
            closed.append(close(through: committed.count - 1, heardUntil: heardUntil, isTail: true))
        } else if !atEnd, let last = committed.last, committed.count > closedCount,
                  heardUntil - windowStart > Self.longestWindow {
            slideWindow(after: last, next: pending.first)
        }
        return closed
    }

    /// Where the open clause is cut when its committed words span `longestClause`: after its
    /// last committed word of four letters or more that has `clauseWords` words up to it.
    private func longClauseCut() -> Int? {
        guard closedCount < committed.count,
              committed[committed.count - 1].end - committed[closedCount].start >= Self.longestClause else { return nil }
        let first = closedCount + Self.clauseWords - 1
        guard first < committed.count else { return nil }
        return (first..<committed.count).last { Self.normalized(committed[$0].text).count >= 4 }
    }

    private mutating func close(through index: Int, heardUntil: Double, isTail: Bool) -> RecognizedClause {
        let clause = RecognizedClause(words: Array(committed[closedCount...index]), committedAt: heardUntil, isTail: isTail)
        closedCount = index + 1
        clauses.append(clause)
        slideWindow(after: committed[index], next: index + 1 < committed.count ? committed[index + 1] : pending.first)
        return clause
    }

    /// `next`: the word after `word`, committed already when a long clause was cut, else the
    /// newest hypothesis's first.
    private mutating func slideWindow(after word: RecognizedWord, next: RecognizedWord?) {
        windowStart = max(windowStart, min(word.end, next?.start ?? word.end) - Self.windowLead)
    }
}
