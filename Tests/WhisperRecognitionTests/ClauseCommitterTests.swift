import Foundation
import ParleyCore
import Testing
@testable import WhisperRecognition

/// The commit policies, clause ends and the sliding window of simultaneous interpretation,
/// on hypotheses written out word by word (times on the utterance's axis).
@Suite struct ClauseCommitterTests {
    /// Words of `text` from `start`, each 0.3 s long with `gap` between them.
    static func words(_ text: String, from start: Double, gap: Double = 0.05) -> [RecognizedWord] {
        var time = start
        return text.split(separator: " ").map { word in
            defer { time += 0.3 + gap }
            return RecognizedWord(text: String(word), start: time, end: time + 0.3, confidence: 0.9)
        }
    }

    @Test("LocalAgreement-2 commits only what two successive hypotheses agree on")
    func localAgreement() {
        var committer = ClauseCommitter(policy: .localAgreement)
        #expect(committer.hypothesis(Self.words("the train leaves", from: 0), heardUntil: 1.2).isEmpty)
        #expect(committer.committed.isEmpty, "one hypothesis commits nothing")
        _ = committer.hypothesis(Self.words("the train leaves from", from: 0), heardUntil: 1.6)
        #expect(committer.committed.map(\.text) == ["the", "train", "leaves"])
        // A revision of an uncommitted word commits only up to where they differ.
        _ = committer.hypothesis(Self.words("the train leaves at nine", from: 0), heardUntil: 2.0)
        #expect(committer.committed.map(\.text) == ["the", "train", "leaves"])
        _ = committer.hypothesis(Self.words("the train leaves at nine on", from: 0), heardUntil: 2.4)
        #expect(committer.committed.map(\.text) == ["the", "train", "leaves", "at", "nine"])
        #expect(committer.display == "the train leaves at nine on")
    }

    @Test("a full stop only one of two hypotheses heard is not agreed on")
    func fullStopsAgree() {
        var committer = ClauseCommitter(policy: .localAgreement)
        _ = committer.hypothesis(Self.words("to consider how much", from: 0), heardUntil: 1.6)
        let closed = committer.hypothesis(Self.words("to consider how. Much there", from: 0), heardUntil: 2.0)
        #expect(closed.isEmpty)
        #expect(committer.committed.map(\.text) == ["to", "consider"])
    }

    @Test("a clause's line glues a word Whisper split at a hyphen or an apostrophe")
    func line() {
        #expect(RecognizedWord.line(["He", "was", "ill", "-disposed", ",", "wasn", "'t", "he?"]) == "He was ill-disposed, wasn't he?")
        #expect(RecognizedWord.line(["-", "yes"]) == "- yes")
    }

    @Test("AlignAtt commits, from one hypothesis, the words aligned a margin before the end of the audio")
    func alignAtt() {
        var committer = ClauseCommitter(policy: .alignAtt, alignAttMargin: 1.0)
        // Words end at 0.3, 0.65, 1.0, 1.35, 1.7: with 2.1 s heard, those ending by 1.1 are stable.
        _ = committer.hypothesis(Self.words("we walked along the river", from: 0), heardUntil: 2.1)
        #expect(committer.committed.map(\.text) == ["we", "walked", "along"])
    }

    @Test("a phrase written over and over to the end of a hypothesis is a loop, cut after its first time; a phrase said twice, or a word three times, is speech")
    func loops() {
        let looping = Self.words("he would not have a husband or a husband or a husband or a husband or a hus", from: 0)
        #expect(ClauseCommitter.loopStart(in: looping) == 7, "after the first 'a husband or'")
        #expect(ClauseCommitter.loopStart(in: Self.words("no no no no no", from: 0)) == 1)
        let drifting = Self.words("how much easier to consider how much easier was not an old scotsie how much easier was not", from: 0)
        #expect(ClauseCommitter.loopStart(in: drifting) == 5, "at the phrase's second time")
        for speech in ["he might have been made amiable he might have been made amiable", "very very very good",
                       "thank you thank you", "no no no", "the train the train leaves",
                       "he might have been made still more respectable than he was he might even have been made amiable himself"] {
            #expect(ClauseCommitter.loopStart(in: Self.words(speech, from: 0)) == nil, "'\(speech)' is speech")
        }

        // Two decodes that loop alike commit the phrase once: each is cut, and the cut one
        // reads as stopped early.
        var committer = ClauseCommitter(policy: .localAgreement)
        _ = committer.hypothesis(Self.words("how he would not have", from: 0), heardUntil: 1.8)
        _ = committer.hypothesis(Self.words("how he would not have a husband or a husband or a husband or a husband or", from: 0),
                                 heardUntil: 5.6)
        _ = committer.hypothesis(Self.words("how he would not have a husband or a husband or a husband or a husband or a husband", from: 0),
                                 heardUntil: 6.0)
        #expect(committer.loopCount == 2)
        #expect(!committer.display.contains("husband or a husband"), "\(committer.display)")
        let tail = committer.finish(tail: Self.words("how he would not have a husband or a husband or a husband or a", from: 0),
                                    heardUntil: 6.5)
        #expect(RecognizedWord.line(tail.flatMap(\.words).map(\.text)) == "how he would not have a husband or")
    }

    @Test("a word written as trailing off is never committed, nor anything after it")
    func trailingOff() {
        var committer = ClauseCommitter(policy: .localAgreement)
        _ = committer.hypothesis(Self.words("he had then... to consider", from: 0), heardUntil: 2.0)
        _ = committer.hypothesis(Self.words("he had then... to consider", from: 0), heardUntil: 2.5)
        #expect(committer.committed.map(\.text) == ["he", "had"])
    }

    @Test("a clause ends at a full stop; a title's full stop ends none")
    func sentenceEnds() {
        var committer = ClauseCommitter(policy: .localAgreement)
        let text = "Mr. Smith is here. We are"
        _ = committer.hypothesis(Self.words(text, from: 0), heardUntil: 2.2)
        let closed = committer.hypothesis(Self.words(text, from: 0), heardUntil: 2.6)
        #expect(closed.map(\.text) == ["Mr. Smith is here."])
        #expect(closed.first?.committedAt == 2.6)
        // The window slides to just before the end of the clause's last word.
        #expect(abs(committer.windowStart - (1.35 - ClauseCommitter.windowLead)) < 1e-9)
        #expect(committer.prompt == "Mr. Smith is here.")
    }

    @Test("a pause of 250 ms ends a clause of three words or more, not of two")
    func pauses() {
        var committer = ClauseCommitter(policy: .localAgreement)
        // "yes well" then a 0.4 s pause: two words, no clause.
        let short = Self.words("yes well", from: 0) + Self.words("I think so and", from: 1.05)
        _ = committer.hypothesis(short, heardUntil: 2.6)
        var closed = committer.hypothesis(short, heardUntil: 2.8)
        #expect(closed.isEmpty, "\(closed.map(\.text))")
        // Then 0.4 s before the next word: a clause of six words from the start.
        let long = short + Self.words("then we go on", from: 2.8)
        closed = committer.hypothesis(long, heardUntil: 4.5)
        #expect(closed.map(\.text) == ["yes well I think so and"], "\(closed.map(\.text))")
    }

    @Test("audio heard past the last word is a pause only where the detector heard silence too")
    func trailingPauses() {
        // Whisper stopped after "there" in both decodes, 0.7 s before the end of the audio.
        let heard = Self.words("how much there", from: 0)
        var speaking = ClauseCommitter(policy: .localAgreement)
        _ = speaking.hypothesis(heard, heardUntil: 1.7, silent: false)
        #expect(speaking.hypothesis(heard, heardUntil: 1.7, silent: false).isEmpty, "the detector still hears speech")
        #expect(speaking.committed.count == 3)
        var paused = ClauseCommitter(policy: .localAgreement)
        _ = paused.hypothesis(heard, heardUntil: 1.7, silent: true)
        #expect(paused.hypothesis(heard, heardUntil: 1.7, silent: true).map(\.text) == ["how much there"])
    }

    @Test("a hypothesis that stops more than 1 s before the audio while speech is heard is set aside")
    func stoppedEarly() {
        var committer = ClauseCommitter(policy: .localAgreement)
        _ = committer.hypothesis(Self.words("to consider how much there", from: 0), heardUntil: 2.0)
        // Whisper stopped after two words, 1.35 s before the end: not compared, not kept.
        _ = committer.hypothesis(Self.words("to consider", from: 0), heardUntil: 2.0 + 0.5)
        #expect(committer.stoppedEarlyCount == 1)
        #expect(committer.committed.isEmpty)
        _ = committer.hypothesis(Self.words("to consider how much there might be", from: 0), heardUntil: 2.6)
        #expect(committer.committed.map(\.text) == ["to", "consider", "how", "much", "there"])
        // An empty reading of speech is set aside too; in silence a short hypothesis is taken.
        _ = committer.hypothesis([], heardUntil: 3.0)
        #expect(committer.stoppedEarlyCount == 2)
        #expect(committer.pending.map(\.text) == ["might", "be"])
        _ = committer.hypothesis(Self.words("to consider how much there might be", from: 0), heardUntil: 3.9, silent: true)
        #expect(committer.stoppedEarlyCount == 2)
        #expect(committer.clauses.map(\.text) == ["to consider how much there might be"], "the silence after it is a pause")
    }

    @Test("a last word stretched over the speech after it is cut back: the hypothesis reads as stopped early, and no window slides past the speech")
    func stretchedLastWord() {
        // "… still more" with "more" aligned until the end of the audio, 2.5 s on, while the
        // person goes on ("respectable than he was").
        var stretched = Self.words("and he might have been made still more", from: 0)
        stretched[stretched.count - 1].end = 4.6
        var agreement = ClauseCommitter(policy: .localAgreement)
        _ = agreement.hypothesis(stretched, heardUntil: 4.7)
        _ = agreement.hypothesis(stretched, heardUntil: 4.7)
        #expect(agreement.stoppedEarlyCount == 2, "more ends by 2.45 + 0.78 s, far before the audio")
        #expect(agreement.committed.isEmpty)

        var alignAtt = ClauseCommitter(policy: .alignAtt)
        let closed = alignAtt.hypothesis(stretched, heardUntil: 4.7)
        let more = alignAtt.committed.last
        #expect(more?.text == "more" && (more?.end ?? 9) <= 2.45 + ClauseCommitter.longestWord(letters: 4) + 0.001)
        // The clause spans 3 s and is cut after "more": the window slides to its end, not to 4.6 s.
        #expect(closed.count == 1 && alignAtt.windowStart < 3.3, "the window slid to \(alignAtt.windowStart), into the speech after more")
        // In silence a long last word is left as it is: nothing follows it.
        var quiet = ClauseCommitter(policy: .alignAtt)
        _ = quiet.hypothesis(stretched, heardUntil: 6.0, silent: true)
        #expect(quiet.committed.last?.end == 4.6)
    }

    @Test("a comma, semicolon or colon ends a clause of three words or more, not of fewer")
    func commas() {
        var committer = ClauseCommitter(policy: .localAgreement)
        let heard = Self.words("Yes, when we arrive; we eat", from: 0)
        _ = committer.hypothesis(heard, heardUntil: 2.2)
        let closed = committer.hypothesis(heard, heardUntil: 2.3)
        #expect(closed.map(\.text) == ["Yes, when we arrive;"], "\(closed.map(\.text))")
        #expect(committer.display == "we eat")
    }

    @Test("a clause that spans 3 s with no punctuation or pause is cut after its last word of four letters or more")
    func longClauses() {
        var committer = ClauseCommitter(policy: .localAgreement)
        // 0.45 s a word: "how" ends at 3.45, 3.45 s after "and" began.
        let heard = Self.words("and he had then leisure to consider how", from: 0, gap: 0.15)
        _ = committer.hypothesis(heard, heardUntil: 3.6)
        let closed = committer.hypothesis(heard, heardUntil: 3.7)
        #expect(closed.map(\.text) == ["and he had then leisure to consider"], "\(closed.map(\.text))")
        #expect(closed.first?.isTail == false)
        // "how" is committed and opens the next clause; the window slides to the cut, the
        // prompt is the clause.
        #expect(committer.committed.count == 8)
        #expect(committer.display.hasPrefix("how"))
        #expect(abs(committer.windowStart - (3.0 - ClauseCommitter.windowLead)) < 1e-9)
        #expect(committer.prompt == "and he had then leisure to consider")
        // Under 3 s nothing is cut.
        var shorter = ClauseCommitter(policy: .localAgreement)
        let short = Self.words("and he had then leisure to", from: 0, gap: 0.15)
        _ = shorter.hypothesis(short, heardUntil: 2.7)
        #expect(shorter.hypothesis(short, heardUntil: 2.8).isEmpty)
    }

    @Test("words after the window are not committed twice when the window hears the end of a committed word again")
    func nothingTwice() {
        var committer = ClauseCommitter(policy: .localAgreement)
        let first = Self.words("It rained all day. Then", from: 0)
        _ = committer.hypothesis(first, heardUntil: 2.0)
        _ = committer.hypothesis(first, heardUntil: 2.4)
        #expect(committer.clauses.map(\.text) == ["It rained all day."])
        // The next window starts inside "day." and hears it again as its first word, aligned
        // later than the first time (its middle after the committed word's end).
        let window = committer.windowStart
        #expect(window < 1.35)
        let again = [RecognizedWord(text: "day.", start: window + 0.35, end: window + 0.65, confidence: 0.5)]
            + Self.words("Then the sun came out.", from: 2.0)
        _ = committer.hypothesis(again, heardUntil: 3.5)
        _ = committer.hypothesis(again, heardUntil: 3.9)
        #expect(committer.clauses.map(\.text) == ["It rained all day.", "Then the sun came out."])
    }

    @Test("a window that starts inside the last committed word and hears its end as a word commits it not again; a word after the committed one that merely ends like it is new")
    func fragments() {
        var committer = ClauseCommitter(policy: .localAgreement)
        let first = Self.words("It rained all day and", from: 0)
        _ = committer.hypothesis(first, heardUntil: 4.0, silent: true)
        _ = committer.hypothesis(first, heardUntil: 4.1, silent: true)
        #expect(committer.clauses.map(\.text) == ["It rained all day and"])
        let and = committer.committed[committer.committed.count - 1]
        // "nd": the end of "and", from inside it to past its end (its middle after it).
        let heard = [RecognizedWord(text: "nd", start: and.end - 0.05, end: and.end + 0.2, confidence: 0.3)]
            + Self.words("then the sun came out.", from: and.end + 0.3)
        _ = committer.hypothesis(heard, heardUntil: 6.5, silent: true)
        _ = committer.hypothesis(heard, heardUntil: 6.6, silent: true)
        #expect(committer.clauses.map(\.text) == ["It rained all day and", "then the sun came out."])

        // "nd" after "woman": a piece of consonants, no word; "Mr." after "And" is a word.
        /// The words committed when `said` is committed whole, then the window after it hears
        /// `next` (given the last committed word's end), twice.
        func committed(after said: [RecognizedWord], _ next: (Double) -> [RecognizedWord]) -> [String] {
            var committer = ClauseCommitter(policy: .localAgreement)
            // Each heard past its end for longer than the trailing pause: its clause ends there.
            _ = committer.hypothesis(said, heardUntil: said.last!.end + 0.8, silent: true)
            _ = committer.hypothesis(said, heardUntil: said.last!.end + 0.9, silent: true)
            let heard = next(committer.committed[committer.committed.count - 1].end)
            _ = committer.hypothesis(heard, heardUntil: heard.last!.end + 0.8, silent: true)
            _ = committer.hypothesis(heard, heardUntil: heard.last!.end + 0.9, silent: true)
            return committer.committed.map(\.text)
        }
        let had = Self.words("had he married a woman", from: 0)
        #expect(committed(after: had) { end in
            [RecognizedWord(text: "nd", start: end - 0.08, end: end + 0.12, confidence: 0.4)] + Self.words("he might", from: end + 0.2)
        } == ["had", "he", "married", "a", "woman", "he", "might"])
        // The same piece first in its window but aligned after the pause that follows the word.
        #expect(committed(after: had) { end in
            [RecognizedWord(text: "nd", start: end + 0.3, end: end + 0.45, confidence: 0.4)] + Self.words("he might", from: end + 0.5)
        } == ["had", "he", "married", "a", "woman", "he", "might"])
        // A word of consonants after the window's first word is the decode's to keep.
        #expect(committed(after: had) { Self.words("a vlk", from: $0 + 0.3) }.suffix(2) == ["a", "vlk"])
        #expect(committed(after: Self.words("and so on and", from: 0)) { end in
            [RecognizedWord(text: "Mr.", start: end - 0.05, end: end + 0.25, confidence: 0.9)] + Self.words("John came in", from: end + 0.3)
        } == ["and", "so", "on", "and", "Mr.", "John", "came", "in"])

        // "man" then "an" said after it: a word of its own, begun after "man" ended.
        var other = ClauseCommitter(policy: .localAgreement)
        let man = Self.words("there was a man", from: 0)
        _ = other.hypothesis(man, heardUntil: 2.5, silent: true)
        _ = other.hypothesis(man, heardUntil: 2.6, silent: true)
        let next = Self.words("an old man.", from: man[3].end + 0.25)
        _ = other.hypothesis(next, heardUntil: 4.0, silent: true)
        _ = other.hypothesis(next, heardUntil: 4.1, silent: true)
        #expect(other.clauses.map(\.text).joined(separator: " ") == "there was a man an old man.")
    }

    @Test("the tail at the endpoint joins the committed words of the open clause, and the clauses hold every word once")
    func tail() {
        var committer = ClauseCommitter(policy: .localAgreement)
        let heard = Self.words("Good morning. I would like", from: 0)
        _ = committer.hypothesis(heard, heardUntil: 1.9)
        _ = committer.hypothesis(heard, heardUntil: 2.0)
        #expect(committer.clauses.map(\.text) == ["Good morning."])
        // The last window starts before "I" and hears the open clause again, then the rest.
        let last = committer.finish(tail: Self.words("I would like a coffee", from: 0.7), heardUntil: 3.4)
        #expect(last.map(\.text) == ["I would like a coffee"])
        #expect(last.last?.isTail == true)
        #expect(committer.clauses.map(\.text).joined(separator: " ") == "Good morning. I would like a coffee")
    }

    @Test("at the endpoint, once words are committed, the tail's sentences from the first the decoder barely believed are not committed; a sentence it believed before them is, and a tail with nothing committed before it is whole")
    func tailTheDecoderBarelyBelieved() {
        func doubted(_ text: String, from start: Double, confidences: [Double]) -> [RecognizedWord] {
            zip(Self.words(text, from: start), confidences).map {
                RecognizedWord(text: $0.text, start: $0.start, end: $0.end, confidence: $1)
            }
        }
        var committer = ClauseCommitter(policy: .localAgreement)
        let heard = Self.words("He was not an ill-disposed young man. He might", from: 0)
        _ = committer.hypothesis(heard, heardUntil: 3.2)
        _ = committer.hypothesis(heard, heardUntil: 3.3)
        #expect(committer.clauses.map(\.text) == ["He was not an ill-disposed young man."])
        // The speaker's last sentence (one word of it unsure), then the echo written as English.
        let last = Self.words("He might even have been made amiable himself.", from: 2.8)
        let unsure = [RecognizedWord(text: last[0].text, start: last[0].start, end: last[0].end, confidence: 0.28)] + last.dropFirst()
        let echo = doubted("Inclusively, he has a lot of power.", from: last.last!.end + 0.4,
                           confidences: [0.32, 0.02, 0.2, 0.33, 0.03, 0.81, 0.06])
        _ = committer.finish(tail: unsure + echo, heardUntil: 9.0)
        #expect(committer.clauses.map(\.text).joined(separator: " ")
                    == "He was not an ill-disposed young man. He might even have been made amiable himself.")
        #expect(committer.doubtedCount == 7)

        // The window starts inside the last committed word: a word begun there is heard only in
        // part, and does not count (the passage's last word, alone in the last window, which the
        // commit decodes wrote "amiable." before); the echo after it does.
        var begun = ClauseCommitter(policy: .localAgreement)
        let opening = Self.words("He might even have been made amiable. himself.", from: 0)
        let start = Array(opening.prefix(7))
        _ = begun.hypothesis(start, heardUntil: 2.4)
        _ = begun.hypothesis(start, heardUntil: 2.5)
        #expect(begun.committed.map(\.text) == start.map(\.text))
        let end = doubted("himself.", from: start[6].end - 0.1, confidences: [0.01])
        let echo2 = doubted("He could a more amiable man.", from: end[0].end + 0.4, confidences: [0.01, 0.02, 0.0, 0.02, 0.01, 0.02])
        _ = begun.finish(tail: end + echo2, heardUntil: 6.0)
        #expect(begun.clauses.map(\.text).joined(separator: " ") == "He might even have been made amiable. himself.")
        #expect(begun.doubtedCount == 6)
        // The same word begun after the committed word ended is judged as any other.
        var after = ClauseCommitter(policy: .localAgreement)
        _ = after.hypothesis(start, heardUntil: 2.4)
        _ = after.hypothesis(start, heardUntil: 2.5)
        _ = after.finish(tail: doubted("himself.", from: start[6].end + 0.2, confidences: [0.01]), heardUntil: 6.0)
        #expect(after.doubtedCount == 1)

        // Nothing committed: the tail is the whole utterance, and is kept however unsure.
        var alone = ClauseCommitter(policy: .localAgreement)
        _ = alone.finish(tail: doubted("Y un café con leche.", from: 0, confidences: [0.3, 0.2, 0.35, 0.1, 0.3]), heardUntil: 2.0)
        #expect(alone.clauses.map(\.text) == ["Y un café con leche."])
    }

    @Test("at the endpoint, tail words the speech after the committed words cannot hold are not committed; a tail the speech holds is whole")
    func tailTheSpeechCannotHold() {
        // 5.6 s of speech (the detector's hangover after the last word), then silence to 6.0 s.
        var speech = SpeechTimeline()
        speech.append(Int(5.6 * 16_000), speech: true)
        speech.append(Int(0.4 * 16_000), speech: false)
        let said = Self.words("He was not an ill-disposed young man. He might even have been made amiable himself.", from: 0.2)
        #expect(abs(said.last!.end - 5.4) < 0.01)
        var committer = ClauseCommitter(policy: .localAgreement)
        _ = committer.hypothesis(said, heardUntil: 5.6, silent: true, speech: speech)
        _ = committer.hypothesis(said, heardUntil: 5.7, silent: true, speech: speech)
        #expect(committer.clauses.map(\.text).joined(separator: " ") == RecognizedWord.line(said.map(\.text)))
        // The last window holds the end of "himself." and silence; the final decode writes a
        // sentence after it, in the 0.2 s of speech there is: 24 letters, of which "an" would
        // fit, but not the sentence it begins.
        let again = Self.words("an ill-tempered young fellow.", from: 5.35, gap: -0.2)
        let last = committer.finish(tail: again, heardUntil: 6.0, speech: speech)
        #expect(last.isEmpty, "\(last.map(\.text))")
        #expect(committer.unheardCount == 4)

        // Words said before it, "… amiable himself.", are kept to their sentence's end.
        var open = ClauseCommitter(policy: .localAgreement)
        let first = Array(said.prefix(13))
        _ = open.hypothesis(first, heardUntil: 5.0, silent: false, speech: speech)
        _ = open.hypothesis(first, heardUntil: 5.1, silent: false, speech: speech)
        #expect(open.committed.count == 13)
        let tail = open.finish(tail: Array(said.suffix(2)) + again, heardUntil: 6.0, speech: speech)
        #expect(tail.map(\.text).last?.hasSuffix("amiable himself.") == true, "\(tail.map(\.text))")
        #expect(open.unheardCount == 4)

        // The same tail after speech long enough to say it is kept.
        var longer = SpeechTimeline()
        longer.append(Int(6.8 * 16_000), speech: true)
        longer.append(Int(0.5 * 16_000), speech: false)
        var other = ClauseCommitter(policy: .localAgreement)
        _ = other.hypothesis(said, heardUntil: 5.6, silent: false, speech: longer)
        _ = other.hypothesis(said, heardUntil: 5.7, silent: false, speech: longer)
        let whole = other.finish(tail: Self.words("an ill-tempered young fellow.", from: 5.45), heardUntil: 7.3, speech: longer)
        #expect(whole.map(\.text) == ["an ill-tempered young fellow."])
        #expect(other.unheardCount == 0)
        // Four words of the committed text in a row are taken for the prompt copied, however
        // long the speech after them (`copiedPhrase`).
        var copied = ClauseCommitter(policy: .localAgreement)
        _ = copied.hypothesis(said, heardUntil: 5.6, silent: false, speech: longer)
        _ = copied.hypothesis(said, heardUntil: 5.7, silent: false, speech: longer)
        #expect(copied.finish(tail: Self.words("an ill-disposed young man.", from: 5.45), heardUntil: 7.3, speech: longer).isEmpty)
        #expect(copied.copiedCount == 4 && copied.unheardCount == 0)
    }

    @Test("a tail that copies committed words is kept only where the speech holds them at a speaker's pace")
    func tailThatCopiesThePrompt() {
        // "himself." ends at 5.4 s; the detector heard speech to 5.85 s (the hangover and an
        // alignment that ends early), then silence to 6.2 s.
        var speech = SpeechTimeline()
        speech.append(Int(5.85 * 16_000), speech: true)
        speech.append(Int(0.35 * 16_000), speech: false)
        let said = Self.words("He was not an ill-disposed young man. He might even have been made amiable himself.", from: 0.2)
        var committer = ClauseCommitter(policy: .localAgreement)
        _ = committer.hypothesis(said, heardUntil: 5.6, silent: true, speech: speech)
        _ = committer.hypothesis(said, heardUntil: 5.7, silent: true, speech: speech)
        // The final decode writes "not an ill-" of the prompt again: 9 letters, which fit the
        // 0.45 s at the shortest pace (0.36 s) but not at a fast speaker's (0.54 s).
        let copy = Self.words("not an ill-", from: 5.45, gap: -0.15)
        #expect(ClauseCommitter.copiedRun(in: copy, of: committer.committed[...]) == 0)
        #expect(committer.finish(tail: copy, heardUntil: 6.2, speech: speech).isEmpty)
        #expect(committer.unheardCount == 3)

        // Before it, "amiable himself." is kept to its sentence's end.
        var open = ClauseCommitter(policy: .localAgreement)
        let first = Array(said.prefix(13))
        _ = open.hypothesis(first, heardUntil: 5.0, silent: false, speech: speech)
        _ = open.hypothesis(first, heardUntil: 5.1, silent: false, speech: speech)
        let tail = open.finish(tail: Array(said.suffix(2)) + copy, heardUntil: 6.2, speech: speech)
        #expect(tail.map(\.text).last?.hasSuffix("amiable himself.") == true, "\(tail.map(\.text))")
        #expect(open.unheardCount == 3)

        // A phrase said again, in the time it takes to say, is kept; and words that copy
        // nothing are held to the shortest pace only.
        var longer = SpeechTimeline()
        longer.append(Int(6.6 * 16_000), speech: true)
        longer.append(Int(0.4 * 16_000), speech: false)
        for (text, expected) in [("not an ill-disposed", "not an ill-disposed"), ("yes indeed", "yes indeed")] {
            var again = ClauseCommitter(policy: .localAgreement)
            _ = again.hypothesis(said, heardUntil: 5.6, silent: false, speech: longer)
            _ = again.hypothesis(said, heardUntil: 5.7, silent: false, speech: longer)
            let last = again.finish(tail: Self.words(text, from: 5.5), heardUntil: 7.0, speech: longer)
            #expect(last.map(\.text) == [expected])
            #expect(again.unheardCount == 0)
        }
        #expect(ClauseCommitter.copiedRun(in: Self.words("yes indeed", from: 0), of: said[...]) == nil)
        #expect(ClauseCommitter.copiedRun(in: Self.words("I think young man", from: 0), of: said[...]) == 2)
    }

    /// A LocalAgreement committer that has committed `words`, heard twice ending in silence at 3 s.
    static func committing(_ words: [RecognizedWord]) -> ClauseCommitter {
        var committer = ClauseCommitter(policy: .localAgreement)
        _ = committer.hypothesis(words, heardUntil: 3.0, silent: true)
        _ = committer.hypothesis(words, heardUntil: 3.1, silent: true)
        return committer
    }

    @Test("a phrase of four words or more that the committed text holds, written again, is not committed; what follows it is, and so are fewer words said again")
    func copiedPhrase() {
        let said = Self.words("He was not an ill-disposed young man.", from: 0.2)
        var committer = Self.committing(said)
        #expect(committer.committed.count == 7)
        // The next windows, over the translation's echo and then the person going on: the prompt
        // written again ("was not an ill-disposed young man."), then the new words.
        let echoed = Self.words("It was not an ill-disposed young man. Had he married a more", from: 3.0)
        _ = committer.hypothesis(echoed, heardUntil: 7.0)
        _ = committer.hypothesis(echoed + Self.words("amiable", from: 7.2), heardUntil: 7.6)
        #expect(committer.committed.map(\.text).suffix(6) == ["It", "Had", "he", "married", "a", "more"],
                "\(committer.committed.map(\.text))")
        #expect(committer.copiedCount >= 6)
        // At the end, the tail's copy goes the same way, with no speech timeline to tell it.
        _ = committer.finish(tail: Self.words("amiable. He was not an ill-disposed", from: 7.2), heardUntil: 9.5)
        #expect(committer.committed.map(\.text).suffix(2) == ["more", "amiable."], "\(committer.committed.map(\.text))")

        // Three words said again are the person's: "not an ill-" of the last test, "to be".
        var again = Self.committing(said)
        let three = Self.words("Not an ill man at all", from: 3.0)
        _ = again.hypothesis(three, heardUntil: 5.5)
        _ = again.hypothesis(three + Self.words("but", from: 5.2), heardUntil: 5.8)
        #expect(again.committed.map(\.text).suffix(6) == ["Not", "an", "ill", "man", "at", "all"], "\(again.committed.map(\.text))")
        #expect(again.copiedCount == 0)
        #expect(ClauseCommitter.copiedPhrase(in: Self.words("it was not an ill man", from: 0), of: said[...]) == nil)
        #expect(ClauseCommitter.copiedPhrase(in: Self.words("so he was not an ill-disposed man", from: 0), of: said[...]) == 1..<6)
    }

    @Test("one decode that writes a sentence twice commits it once; a phrase of three words said twice is kept")
    func copiedWithinOneDecode() {
        let sentence = "He was not of the opinion of his wife."
        var committer = ClauseCommitter(policy: .localAgreement)
        let twice = Self.words("\(sentence) \(sentence)", from: 0.2)
        _ = committer.hypothesis(twice, heardUntil: 6.5)
        _ = committer.hypothesis(twice + Self.words("And", from: 6.6), heardUntil: 7.0)
        _ = committer.finish(tail: twice + Self.words("And so", from: 6.6), heardUntil: 7.5)
        #expect(committer.committed.map(\.text).joined(separator: " ") == "\(sentence) And so",
                "\(committer.committed.map(\.text))")
        #expect(committer.copiedCount >= 9)
        // The copy begins after the first sentence: the words before it stay.
        #expect(ClauseCommitter.copiedPhrase(in: Self.words("\(sentence) Then \(sentence)", from: 0), of: []) == 10..<19)
        #expect(ClauseCommitter.copiedPhrase(in: Self.words("to be or to be or not", from: 0), of: []) == nil)
    }

    @Test("a window that grows past the longest window slides to its last committed word")
    func longWindow() {
        var committer = ClauseCommitter(policy: .localAgreement)
        // Fourteen seconds of words with no punctuation and no pause, none of four letters (as
        // in a language written without spaces): no clause is cut.
        let text = (0..<40).map { String(format: "x%02d", $0) }.joined(separator: " ")
        _ = committer.hypothesis(Self.words(text, from: 0, gap: 0.05), heardUntil: 14.2)
        _ = committer.hypothesis(Self.words(text, from: 0, gap: 0.05), heardUntil: 14.4)
        #expect(committer.clauses.isEmpty)
        #expect(committer.windowStart > 12)
    }
}
