import ParleyCore
import Testing
@testable import WhisperRecognition

/// Decodes that left speech out, which the committer cuts where the detector heard speech no
/// word covers; and the speech timeline it reads that from. Decodes are written out as the
/// model's alignment reads (times on the utterance's axis).
@Suite struct ClauseCommitterGapTests {
    /// Words written as a decode's alignment reads, `text[start-end] …`.
    static func aligned(_ line: String) -> [RecognizedWord] {
        line.split(separator: " ").map { item in
            let open = item.lastIndex(of: "[")!
            let times = item[item.index(after: open)...].dropLast().split(separator: "-").map { Double($0)! }
            return RecognizedWord(text: String(item[..<open]), start: times[0], end: times[1], confidence: 0.9)
        }
    }

    /// Where the detector heard speech, as `[(from, to)]` spans of speech in `seconds` of audio.
    static func timeline(speech spans: [(Double, Double)], seconds: Double) -> SpeechTimeline {
        var timeline = SpeechTimeline()
        var position = 0
        for (from, to) in spans + [(seconds, seconds)] {
            timeline.append(Int(from * 16_000) - position, speech: false)
            timeline.append(Int(to * 16_000) - Int(from * 16_000), speech: true)
            position = Int(to * 16_000)
        }
        return timeline
    }

    /// Three of the real model's decodes of the window after "… in his power" in the first
    /// passage (the person goes on: "to do for them. He was not an ill-disposed young man. Had
    /// he married a more amiable woman he might have been …"); the second wrote "to do" for
    /// 5.75 s of it, "to" aligned over the rest. And where the detector heard speech.
    static let powerWindow = (
        whole: aligned("to[5.62-5.90] do[5.90-6.06] for[6.06-6.36] them.[6.36-6.52] He[6.76-6.82] was[6.82-7.00] not[7.00-7.30] an[7.30-7.76] ill[7.76-7.92] -disposed[7.92-8.52] young[8.52-8.74] man.[8.74-9.14] Had[9.54-9.64] he[9.64-9.76] married[9.76-10.06] a[10.06-10.26] more...[10.26-10.60]"),
        stopped: aligned("to[5.62-11.32] do[11.32-11.34]"),
        next: aligned("to[5.62-5.92] do[5.92-6.06] for[6.06-6.36] them.[6.36-6.52] He[6.76-6.84] was[6.84-7.00] not[7.00-7.30] an[7.30-7.76] ill[7.76-7.92] -sposed[7.92-8.48] young[8.48-8.74] man.[8.74-9.14] Had[9.54-9.64] he[9.64-9.76] married[9.76-10.04] a[10.04-10.28] more[10.28-10.52] amiable[10.52-11.12] woman[11.12-11.54] he[11.54-11.90] might[11.90-12.12] have[12.12-12.34] -[12.34-12.34]"),
        speech: timeline(speech: [(0.3, 6.6), (6.8, 9.2), (9.5, 11.6), (11.8, 12.4)], seconds: 12.4))

    @Test("a decode that wrote nothing for seconds of speech is cut where it did: the words said there are committed, in order")
    func speechLeftOut() {
        let window = Self.powerWindow
        var committer = ClauseCommitter(policy: .localAgreement)
        _ = committer.hypothesis(window.whole, heardUntil: 10.62, speech: window.speech)
        _ = committer.hypothesis(window.stopped, heardUntil: 11.37, speech: window.speech)
        #expect(committer.gapCount == 1 && committer.leftSpeechOut)
        #expect(committer.stoppedEarlyCount == 1, "nothing before \"to\": it stopped 5 s before the audio")
        #expect(committer.committed.isEmpty)
        _ = committer.hypothesis(window.next, heardUntil: 12.37, speech: window.speech)
        #expect(!committer.leftSpeechOut)
        #expect(committer.committed.map(\.text) == ["to", "do", "for", "them.", "He", "was", "not", "an", "ill"])
        #expect((committer.committed.last?.end ?? 99) < 8)

        // Without the detector's verdicts the stopped decode is agreed with: "do" is committed
        // ending at 11.34 s, and what was said before that reads as committed already.
        var blind = ClauseCommitter(policy: .localAgreement)
        for (words, heard) in [(window.whole, 10.62), (window.stopped, 11.37), (window.next, 12.37)] {
            _ = blind.hypothesis(words, heardUntil: heard)
        }
        #expect(blind.committed.map(\.text) == ["to", "do"] && (blind.committed.last?.end ?? 0) > 11)
        #expect(blind.newWords(in: window.next).first?.text == "he", "for them … amiable woman would never be committed")
    }

    /// "woman" and "he" 2.2 s apart, "woman" lasting until "he".
    static let longWoman = aligned("a[10.04-10.28] more[10.28-10.52] amiable[10.52-11.12] woman[11.12-13.30] he[13.30-13.46] might[13.46-13.68]")

    @Test("a word aligned over a pause the detector heard as silence is not a gap; one over a second of speech is")
    func gaps() {
        let words = Self.longWoman
        let paused = Self.timeline(speech: [(9.5, 11.6), (12.9, 13.7)], seconds: 13.7)
        #expect(ClauseCommitter.wordAcrossGap(in: words, speech: paused) == nil)
        // 0.88 s of speech from "woman"'s longest end (11.12 + 0.9 s) to "he" is under the second that shows a gap.
        let short = Self.timeline(speech: [(9.5, 12.5), (12.9, 13.7)], seconds: 13.7)
        #expect(ClauseCommitter.wordAcrossGap(in: words, speech: short) == nil)
        let spoken = Self.timeline(speech: [(9.5, 13.7)], seconds: 13.7)
        #expect(ClauseCommitter.wordAcrossGap(in: words, speech: spoken) == 3)
        // No detector, no gap: an empty timeline hears no speech.
        #expect(ClauseCommitter.wordAcrossGap(in: words, speech: SpeechTimeline()) == nil)
    }

    /// Given the prompt back after one decode, decodes alternated in an echo room: with it, a
    /// few words misheard and cut at a gap; without it, the speech; no two in a row agreed.
    @Test("after a decode that left speech out, decodes go without the prompt until one commits words")
    func unpromptedUntilACommit() {
        let window = Self.powerWindow
        var committer = ClauseCommitter(policy: .localAgreement)
        _ = committer.hypothesis(window.whole, heardUntil: 10.62, speech: window.speech)
        _ = committer.hypothesis(window.stopped, heardUntil: 11.37, speech: window.speech)
        #expect(committer.leftSpeechOut)
        // Whole, but agreeing with nothing before it: nothing committed, still no prompt.
        var misheard = window.next
        misheard[0].text = "two"
        _ = committer.hypothesis(misheard, heardUntil: 12.37, speech: window.speech)
        #expect(committer.committed.isEmpty && committer.leftSpeechOut && committer.prompt == nil)
        _ = committer.hypothesis(window.next, heardUntil: 12.37, speech: window.speech)
        #expect(committer.committed.isEmpty, "the first word differs from the last decode's")
        var again = window.next
        again[again.count - 1].end += 0.01
        _ = committer.hypothesis(again, heardUntil: 12.4, speech: window.speech)
        #expect(committer.committed.map(\.text).prefix(4) == ["to", "do", "for", "them."])
        #expect(!committer.leftSpeechOut, "words were committed: the prompt is back")
    }

    @Test("AlignAtt commits a decode's words before its gap, not the word aligned across it, and the next decode goes without the prompt")
    func alignAttGap() {
        var committer = ClauseCommitter(policy: .alignAtt)
        _ = committer.hypothesis(Self.longWoman, heardUntil: 13.7, speech: Self.timeline(speech: [(9.5, 13.7)], seconds: 13.7))
        #expect(committer.committed.map(\.text) == ["a", "more", "amiable"])
        #expect(committer.leftSpeechOut && committer.prompt == nil)
        #expect(committer.windowStart <= 11.12, "the window slid into the gap, to \(committer.windowStart)")
    }

    @Test("at the endpoint, a decode that left speech out is committed before the gap, and decoded again without the prompt")
    func endpointGap() {
        let window = Self.powerWindow
        var committer = ClauseCommitter(policy: .localAgreement)
        // "how much … in his power to do" spans 3 s: cut after "power", the window at its end.
        let opening = Self.aligned("how[3.06-3.42] much[3.42-3.98] there[3.98-4.28] might[4.28-4.48] be[4.48-4.70] prudently[4.70-5.18] in[5.18-5.36] his[5.36-5.50] power[5.50-5.72] to[5.72-5.92] do[5.92-6.08]")
        _ = committer.hypothesis(opening, heardUntil: 6.3, speech: window.speech)
        _ = committer.hypothesis(opening, heardUntil: 6.4, speech: window.speech)
        #expect(committer.clauses.map(\.text) == ["how much there might be prudently in his power"])
        #expect(abs(committer.windowStart - 5.62) < 1e-9 && committer.prompt?.hasSuffix("in his power") == true)

        let whole = committer.commitBeforeGap(in: window.next, speech: window.speech)
        #expect(!whole, "nothing left out")
        let stopped = committer.commitBeforeGap(in: window.stopped, speech: window.speech)
        #expect(stopped, "decoded again without the prompt")
        #expect(committer.prompt == nil && abs(committer.windowStart - 5.62) < 1e-9 && committer.gapCount == 1)
        let again = committer.commitBeforeGap(in: window.stopped, speech: window.speech)
        #expect(!again, "the same audio without a prompt again would be the same decode")
        // The rest, decoded again, is the tail: nothing said in the gap is lost, nothing is twice.
        _ = committer.finish(tail: window.next, heardUntil: 12.4)
        #expect(committer.clauses.map(\.text).joined(separator: " ")
            == "how much there might be prudently in his power to do for them. He was not an ill-sposed young man. Had he married a more amiable woman he might have-")
    }

    @Test("the speech timeline counts the speech heard between two times, clamped to what it holds")
    func speechTimeline() {
        var timeline = SpeechTimeline()
        timeline.append(1_600, speech: false)
        timeline.append(3_200, speech: true)
        timeline.append(1_600, speech: true)
        timeline.append(800, speech: false)
        timeline.append(0, speech: true)
        #expect(timeline.count == 7_200)
        #expect(abs(timeline.speech(from: 0, to: 1) - 0.3) < 1e-9)
        #expect(abs(timeline.speech(from: 0.2, to: 0.42) - 0.2) < 1e-9)
        #expect(timeline.speech(from: 0.41, to: 2) == 0)
        #expect(timeline.speech(from: 0.3, to: 0.2) == 0)
        #expect(abs(timeline.speech(from: -1, to: 0.15) - 0.05) < 1e-9)
    }
}
