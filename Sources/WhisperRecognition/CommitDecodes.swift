import Logging
import ParleyCore
import Recognition

/// The commit decodes of one request with a `CommitPolicy` (simultaneous interpretation), and
/// the state only they need: the `ClauseCommitter`, where the detector heard speech in the
/// utterance, and the clauses not handed on yet.
///
/// While the person speaks, a commit decode hears the window after the last clause, with the
/// committed text before it as the prompt, each time `Tuning.commitInterval` of new audio has
/// come, one at a time (`nextWindow`); the committer takes its words and hands on the clauses
/// they end (`decoded`). Committed audio is never decoded again. At the endpoint
/// (`finalResult`), the final decode hears the last window, and its words are the tail.
///
/// `WhisperRequest` owns it: the request feeds it the detector's verdicts, runs the decodes it
/// asks for and hands back their answers. Samples and times are on the utterance's own axis;
/// the clauses handed on are on the request's.
struct CommitDecodes: Sendable {
    /// The audio of one commit decode: a window of the utterance, and the prompt before it.
    struct Window: Sendable {
        /// The window's samples.
        let audio: [Int16]
        /// Where the window starts in the utterance, in samples.
        let start: Int
        /// Where it ends: how much of the utterance had been heard, in samples.
        let heard: Int
        /// The committed text before the window.
        let context: String?
        /// Whether the detector heard silence at the end of the window: a pause there is real.
        let silent: Bool
    }

    /// How many times at most the endpoint decodes the rest of a window again after a decode
    /// that left speech out (`ClauseCommitter.commitBeforeGap`).
    static let gapRedecodes = 2

    /// The shortest window a commit decode hears, in samples (1.5 s).
    static let shortestWindow = 24_000

    private var committer: ClauseCommitter
    /// Where the detector heard speech in the utterance (none in the audio before the onset).
    private var speech = SpeechTimeline()
    /// Where the utterance's first sample lies, in seconds from the start of the request.
    private var origin = 0.0
    /// How much of the utterance the last commit decode heard, in samples.
    private var decodedLength = 0
    /// Clauses committed since the request last took them, on the request's axis.
    private var readyClauses: [RecognizedClause] = []
    /// Each committed clause's `otherLanguageShare`, in order: the share the decode that closed
    /// it told.
    private var clauseShares: [Double?] = []
    /// What the endpoint made of the final decode's words, for the debug log: the tail with its
    /// times, where the committed words ended, the speech heard after them, the words dropped.
    private(set) var tailReport: [String: Logger.MetadataValue] = [:]
    /// The commit decode that runs, if one does; the request starts it and clears it.
    var running: Task<Void, Never>?

    /// Commits by `policy`, AlignAtt with `alignAttMargin` seconds.
    init(policy: CommitPolicy, alignAttMargin: Double) {
        committer = ClauseCommitter(policy: policy, alignAttMargin: alignAttMargin)
    }

    /// The committed text before the window: what a decode of it is told came before.
    var prompt: String? { committer.prompt }

    /// Whether any word is committed.
    var hasCommitted: Bool { !committer.committed.isEmpty }

    /// Where the window starts, in samples of an utterance of `count` samples.
    func windowStart(in count: Int) -> Int {
        min(count, Int((committer.windowStart * 16_000).rounded()))
    }

    // MARK: The detector's verdicts

    /// The utterance starts with `samples` samples, `origin` seconds into the request: the
    /// audio before the onset, then the `step` samples the detector's verdict `heard` is on.
    mutating func utteranceStarted(samples: Int, step: Int, heard: Bool, origin: Double) {
        speech = SpeechTimeline()
        speech.append(samples - step, speech: false)
        speech.append(step, speech: heard)
        self.origin = origin
    }

    /// `samples` more samples of the utterance, with the detector's verdict on them.
    mutating func append(_ samples: Int, heard: Bool) {
        speech.append(samples, speech: heard)
    }

    // MARK: While the person speaks

    /// The window the next commit decode hears, when one is due: none runs, `interval`
    /// seconds of new audio came since the last, and the window holds `shortestWindow`.
    /// `silent`: the detector hears silence at the end of `utterance`.
    mutating func nextWindow(of utterance: [Int16], interval: Double, silent: Bool) -> Window? {
        guard running == nil, utterance.count - decodedLength >= Int(interval * 16_000) else { return nil }
        let start = windowStart(in: utterance.count), heard = utterance.count
        // Less than this is too little for Whisper to be sure of the first words: it drops
        // an utterance's opening "and" from a short window as often as not.
        guard heard - start >= Self.shortestWindow else { return nil }
        decodedLength = heard
        return Window(audio: Array(utterance[start..<heard]), start: start, heard: heard, context: prompt, silent: silent)
    }

    /// Takes the answer of the commit decode of `window`; returns the open clause as shown
    /// while the person speaks (`ClauseCommitter.display`).
    mutating func decoded(_ answer: WhisperTranscription, of window: Window) -> String {
        let offset = Double(window.start) / 16_000
        let words = answer.heard ? answer.words.map {
            RecognizedWord(text: $0.text, start: $0.start + offset, end: $0.end + offset, confidence: $0.confidence)
        } : []
        let closed = committer.hypothesis(words, heardUntil: Double(window.heard) / 16_000, silent: window.silent,
                                          speech: speech)
        let share = answer.otherLanguageShare
        clauseShares += closed.map { _ in share }
        readyClauses += closed.map { $0.shifted(by: origin, otherLanguageShare: share) }
        return committer.display
    }

    /// The clauses committed since the last call, on the request's axis.
    mutating func takeClauses() -> [RecognizedClause] {
        defer { readyClauses = [] }
        return readyClauses
    }

    // MARK: At the endpoint

    /// The endpoint's result from `result`, the final decode of `range` of `utterance` (nil
    /// when it heard nothing after the committed words): its words are the tail. A decode that
    /// left speech out is committed up to the gap and the rest decoded again, by `decode`
    /// (given the audio and its prompt). Every clause, the tail last; throws
    /// `emptyRecognition` when there is none.
    mutating func finalResult(_ result: RecognitionResult?, of range: Range<Int>, in utterance: [Int16],
                              decode: @Sendable ([Int16], String?) async throws -> RecognitionResult)
        async throws -> RecognitionResult {
        var range = range
        var tail = Self.tail(of: result, in: range)
        var share = result?.otherLanguageShare
        for _ in 0..<Self.gapRedecodes {
            guard committer.commitBeforeGap(in: tail, speech: speech) else { break }
            range = windowStart(in: utterance.count)..<range.upperBound
            do {
                let again = try await decode(Array(utterance[range]), prompt)
                tail = Self.tail(of: again, in: range)
                share = again.otherLanguageShare
            } catch RecognitionError.emptyRecognition {
                tail = []
            }
        }
        let heardUntil = Double(range.upperBound) / 16_000
        let committedEnd = committer.committed.last?.end ?? committer.windowStart
        tailReport = [
            "words": "\(tail.map { "\($0.text)@\(String(format: "%.2f-%.2f:%.2f", $0.start, $0.end, $0.confidence))" })",
            "committed_end": "\(String(format: "%.2f", committedEnd))", "heard_until": "\(String(format: "%.2f", heardUntil))",
            "speech_after": "\(String(format: "%.2f", speech.speech(from: committedEnd, to: heardUntil)))",
        ]
        _ = committer.finish(tail: tail, heardUntil: heardUntil, speech: speech)
        tailReport["unheard"] = "\(committer.unheardCount)"
        tailReport["copied"] = "\(committer.copiedCount)"
        tailReport["doubted"] = "\(committer.doubtedCount)"
        // Clauses closed at the endpoint (`commitBeforeGap`'s and the tail) were heard by the final decodes.
        clauseShares += Array(repeating: share, count: max(0, committer.clauses.count - clauseShares.count))
        let clauses = zip(committer.clauses, clauseShares).map { $0.shifted(by: origin, otherLanguageShare: $1) }
        guard !clauses.isEmpty else { throw RecognitionError.emptyRecognition }
        return RecognitionResult(text: clauses.map(\.text).joined(separator: " "), confidence: result?.confidence ?? 1,
                                 words: clauses.flatMap(\.words), isFinal: true, clauses: clauses)
    }

    /// A final decode's words of the audio `range`, on the utterance's axis; without word
    /// times, its text's words at the end of the range.
    private static func tail(of result: RecognitionResult?, in range: Range<Int>) -> [RecognizedWord] {
        let words = (result?.words ?? []).map { $0.shifted(by: Double(range.lowerBound) / 16_000) }
        guard words.isEmpty, let text = result?.text, !text.isEmpty else { return words }
        let end = Double(range.upperBound) / 16_000
        // Each word carries the decode's confidence: the tail's sentences are judged by it.
        let confidence = result?.confidence ?? 1
        return text.split(separator: " ").map { RecognizedWord(text: String($0), start: end, end: end, confidence: confidence) }
    }
}

extension RecognizedWord {
    /// The word with its times moved by `seconds`.
    func shifted(by seconds: Double) -> RecognizedWord {
        RecognizedWord(text: text, start: start + seconds, end: end + seconds, confidence: confidence)
    }
}

extension RecognizedClause {
    /// The clause with its times moved by `seconds`, and the share of the other language heard.
    func shifted(by seconds: Double, otherLanguageShare: Double?) -> RecognizedClause {
        RecognizedClause(words: words.map { $0.shifted(by: seconds) }, committedAt: committedAt + seconds, isTail: isTail,
                         otherLanguageShare: otherLanguageShare)
    }
}
