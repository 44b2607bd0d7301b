public import ParleyCore
import Recognition

/// One utterance recognized by Whisper.
///
/// The front end's voice activity detector finds where speech starts and
/// ends; the samples of the utterance are kept and sent to the worker. Three
/// decodes can happen:
/// - partial results, at most every `Tuning.partialInterval` of speech, one at
///   a time, while the person speaks (when partial results are on);
/// - a speculative final decode as soon as the detector hears silence
///   (`Tuning.speculativeMilliseconds` after the last word), so the answer is
///   usually ready when the endpoint confirms;
/// - the final decode, which reuses the speculative one when no speech came
///   after it.
///
/// With a `CommitPolicy` (simultaneous interpretation), the decodes while the person speaks
/// are commit decodes instead of partial ones: a `ClauseCommitter` takes each hypothesis,
/// commits the words its policy calls stable and hands on the clauses they end (`.clause`
/// events). Each decode hears only the window after the last clause, with the committed
/// text before it as the prompt, so committed audio is never decoded again; the final
/// decode hears the last window, and its words are the tail.
public actor WhisperRequest: RecognitionRequest {
    private let recognizer: WhisperRecognizer
    private let language: String
    /// The second language of a two-language request: the final decode is then a pair decode.
    private let pairLanguage: String?
    private let options: RecognitionOptions
    private var stream: WhisperAudioStream
    private var tracker: UtteranceTracker
    /// The utterance's samples, from shortly before the detected onset.
    private var utterance: [Int16] = []
    /// Where the detector heard speech in `utterance` (none in the audio before the onset).
    private var speech = SpeechTimeline()
    /// Where, in `utterance`, the detector last said speech stopped; nil while speech goes on.
    private var silenceStart: Int?
    private var partialRunning = false
    private var readyPartial: String?
    private var lastPartial = ""
    private var lastPartialLength = 0
    private var speculative: (range: Range<Int>, task: Task<RecognitionResult, any Error>)?
    /// Commits words while the person speaks (with a `CommitPolicy`).
    private var committer: ClauseCommitter?
    /// Where the utterance's first sample lies, in seconds from the start of the request.
    private var utteranceOrigin = 0.0
    private var commitTask: Task<Void, Never>?
    private var readyClauses: [RecognizedClause] = []
    private var isOver = false
    /// Audio received so far (samples), and when recent chunks arrived: the pace of the source.
    private var pace = ArrivalPace()

    init(recognizer: WhisperRecognizer, language: String, options: RecognitionOptions,
         stream: WhisperAudioStream, pairLanguage: String? = nil) {
        self.recognizer = recognizer
        self.language = language
        self.pairLanguage = pairLanguage
        self.options = options
        self.stream = stream
        tracker = UtteranceTracker(sampleRate: AudioFormat.recognition.sampleRate,
                                   startTimeout: options.startTimeout, maximumDuration: options.maximumDuration)
        if let policy = options.commitPolicy, pairLanguage == nil {
            committer = ClauseCommitter(policy: policy, alignAttMargin: recognizer.tuning.alignAttMargin)
        }
    }

    /// Feeds 16 kHz mono audio; returns speech start, partial results, speech end and the final result.
    public func append(_ chunk: PCMChunk) async throws -> [RecognitionEvent] {
        precondition(chunk.format == .recognition, "the recognizer decodes 16 kHz mono; convert audio before")
        guard !isOver else { throw RecognitionError.requestReused }
        pace.arrived(chunk.samples.count)
        let audio = stream.leftover + chunk.samples
        stream.leftover = []
        var events = collectPartial()
        var offset = 0
        while offset < audio.count {
            let step = audio[offset..<min(offset + WhisperAudioStream.stepSamples, audio.count)]
            offset = step.endIndex
            let transition = advance(step)
            if transition == .ended { stream.leftover = Array(audio[offset...]) }
            if let final = try await react(to: transition, events: &events) {
                release()
                return events + [.final(final)]
            }
        }
        startPartialIfDue()
        return events
    }

    /// Ends the utterance now and returns the final result of everything heard.
    public func finish() async throws -> RecognitionResult {
        guard !isOver else { throw RecognitionError.requestReused }
        isOver = true
        defer { release() }
        guard tracker.hasSpeech else { throw RecognitionError.emptyRecognition }
        return try await decodeFinal()
    }

    /// Stops now and returns the latest partial result, not final.
    public func cancel() async -> RecognitionResult {
        let text = isOver ? "" : lastPartial
        isOver = true
        release()
        return RecognitionResult(text: text, isFinal: false)
    }

    // MARK: Detection

    /// Runs one 10 ms step through the detector and the tracker.
    private func advance(_ step: ArraySlice<Int16>) -> UtteranceTracker.Transition {
        stream.detector.process(step)
        let heard = stream.detector.inSpeech
        if tracker.hasSpeech {
            utterance += step
            speech.append(step.count, speech: heard)
        } else {
            stream.remember(step)
        }
        if heard {
            if silenceStart != nil { dropSpeculativeDecode() }
            silenceStart = nil
        } else if tracker.hasSpeech, silenceStart == nil {
            silenceStart = utterance.count
            startSpeculativeDecode()
        }
        // Before speech, only the detector's verdict starts an utterance; once it has started,
        // it goes on through the detector's silence until the rest of the endpoint has passed.
        let speaking = heard || (tracker.hasSpeech && !endpointReached)
        let transition = tracker.advance(by: step.count, inSpeech: speaking)
        if transition == .started {
            utterance = stream.takePreroll()
            speech = SpeechTimeline()
            speech.append(utterance.count - step.count, speech: false)
            speech.append(step.count, speech: heard)
            utteranceOrigin = tracker.seconds(max(0, tracker.position - utterance.count))
        }
        return transition
    }

    /// Whether the silence since the detector's verdict completes the endpoint.
    private var endpointReached: Bool {
        guard let silenceStart else { return false }
        let heardAlready = recognizer.tuning.hangoverMilliseconds(endpoint: options.endpointMilliseconds)
        let needed = (options.endpointMilliseconds - heardAlready) * 16
        return utterance.count - silenceStart >= needed
    }

    private func react(to transition: UtteranceTracker.Transition,
                       events: inout [RecognitionEvent]) async throws -> RecognitionResult? {
        switch transition {
        case .none:
            return nil
        case .started:
            events.append(.speechStarted(at: tracker.seconds(tracker.position)))
            return nil
        case .ended:
            events.append(.speechEnded(at: tracker.seconds(tracker.position)))
            isOver = true
            return try await decodeFinal()
        case .timedOut:
            isOver = true
            throw RecognitionError.speechTimeout(options.startTimeout ?? 0)
        case .tooLong:
            isOver = true
            var result = try await decode(utterance)
            result.isFinal = false
            throw RecognitionError.utteranceTooLong(limit: options.maximumDuration, partial: result)
        }
    }

    // MARK: Decoding

    /// The audio a final decode covers: up to where the detector heard silence, from the
    /// start of the last window when words are committed early.
    private var finalRange: Range<Int> {
        let end = silenceStart ?? utterance.count
        return min(windowStartSample, end)..<end
    }

    /// Where the committer's window starts, in samples of the utterance.
    private var windowStartSample: Int {
        guard let committer else { return 0 }
        return min(utterance.count, Int((committer.windowStart * 16_000).rounded()))
    }

    private func decodeFinal() async throws -> RecognitionResult {
        var range = finalRange
        commitTask?.cancel()
        let result: RecognitionResult?
        do {
            if let speculative, speculative.range == range {
                result = try await speculative.task.value
            } else {
                result = try await decode(Array(utterance[range]))
            }
        } catch RecognitionError.emptyRecognition where committer.map({ !$0.committed.isEmpty }) == true {
            result = nil  // the committed words are the utterance; nothing after them
        }
        guard committer != nil else { return try result ?? { throw RecognitionError.emptyRecognition }() }
        var tail = Self.tail(of: result, in: range)
        // A decode that left speech out is committed up to the gap and the rest decoded again.
        for _ in 0..<Self.gapRedecodes {
            guard committer?.commitBeforeGap(in: tail, speech: speech) == true else { break }
            range = windowStartSample..<range.upperBound
            do {
                tail = Self.tail(of: try await decode(Array(utterance[range])), in: range)
            } catch RecognitionError.emptyRecognition {
                tail = []
            }
        }
        guard var committer else { throw RecognitionError.emptyRecognition }
        _ = committer.finish(tail: tail, heardUntil: Double(range.upperBound) / 16_000)
        self.committer = committer
        let clauses = committer.clauses.map { $0.shifted(by: utteranceOrigin) }
        guard !clauses.isEmpty else { throw RecognitionError.emptyRecognition }
        return RecognitionResult(text: clauses.map(\.text).joined(separator: " "), confidence: result?.confidence ?? 1,
                                 words: clauses.flatMap(\.words), isFinal: true, clauses: clauses)
    }

    /// How many times at most the endpoint decodes the rest of a window again after a decode
    /// that left speech out (`ClauseCommitter.commitBeforeGap`).
    static let gapRedecodes = 2

    /// A final decode's words of the audio `range`, on the utterance's axis; without word
    /// times, its text's words at the end of the range.
    private static func tail(of result: RecognitionResult?, in range: Range<Int>) -> [RecognizedWord] {
        let words = (result?.words ?? []).map { $0.shifted(by: Double(range.lowerBound) / 16_000) }
        guard words.isEmpty, let text = result?.text, !text.isEmpty else { return words }
        let end = Double(range.upperBound) / 16_000
        return text.split(separator: " ").map { RecognizedWord(text: String($0), start: end, end: end, confidence: 0) }
    }

    private func decode(_ audio: [Int16]) async throws -> RecognitionResult {
        try await Self.decodeFinal(audio, recognizer, language, pairLanguage, options, context: committer?.prompt)
    }

    private func startSpeculativeDecode() {
        let range = finalRange
        // Audio read faster than it is spoken (a file) already holds what follows the silence:
        // a decode started now would most often be of speech that goes on.
        guard recognizer.tuning.speculative, speculative?.range != range, pace.isRealTime, !range.isEmpty else { return }
        let recognizer = recognizer, language = language, pair = pairLanguage, options = options
        let audio = Array(utterance[range]), context = committer?.prompt
        speculative = (range, Task {
            try await Self.decodeFinal(audio, recognizer, language, pair, options, context: context)
        })
    }

    /// Cancels the speculative decode of audio the speech has gone on after: one that has not
    /// reached the worker yet is never sent, so it does not delay the decodes that count.
    private func dropSpeculativeDecode() {
        speculative?.task.cancel()
        speculative = nil
    }

    /// The final decode: in one language, or in both of a pair from one encoder pass. Steady
    /// sound (`SteadySound`) is not decoded: it is no speech.
    private static func decodeFinal(_ audio: [Int16], _ recognizer: WhisperRecognizer, _ language: String,
                                    _ pair: String?, _ options: RecognitionOptions,
                                    context: String?) async throws -> RecognitionResult {
        if SteadySound.isSteady(audio) {
            recognizer.worker.logger.debug("steady sound: no decode", metadata: ["seconds": "\(Double(audio.count) / 16_000)"])
            throw RecognitionError.emptyRecognition
        }
        guard let pair else {
            return try result(from: await recognizer.decode(audio, language: language, options: options, final: true,
                                                            context: context))
        }
        return try pairResult(await recognizer.decodePair(audio, languages: (language, pair), options: options))
    }

    /// Starts a partial decode of the utterance so far when enough new speech came and none runs.
    private func startPartialIfDue() {
        if committer != nil { return startCommitDecodeIfDue() }
        guard recognizer.tuning.partialResults, tracker.hasSpeech, silenceStart == nil, !partialRunning,
              utterance.count - lastPartialLength >= Int(recognizer.tuning.partialInterval * 16_000) else { return }
        partialRunning = true
        let audio = utterance, recognizer = recognizer, language = language, options = options
        Task {
            let answer = try? await recognizer.decode(audio, language: language, options: options, final: false)
            self.partialFinished(length: audio.count, answer: answer)
        }
    }

    private func partialFinished(length: Int, answer: WhisperTranscription?) {
        partialRunning = false
        lastPartialLength = length
        guard !isOver, let answer, answer.heard, answer.text != lastPartial else { return }
        readyPartial = answer.text
    }

    /// The newest partial text that finished decoding since the last call, after the clauses
    /// committed since.
    private func collectPartial() -> [RecognitionEvent] {
        var events = readyClauses.map(RecognitionEvent.clause)
        readyClauses = []
        guard let text = readyPartial else { return events }
        readyPartial = nil
        lastPartial = text
        events.append(.partial(text))
        return events
    }

    // MARK: Committing while the person speaks

    /// Starts a commit decode of the window when `Tuning.commitInterval` of new audio came and
    /// none runs. Unlike partial decodes, these go on through the detector's silence: a pause
    /// is where a clause ends.
    private func startCommitDecodeIfDue() {
        guard let committer, tracker.hasSpeech, commitTask == nil, !isOver,
              utterance.count - lastPartialLength >= Int(recognizer.tuning.commitInterval * 16_000) else { return }
        let start = windowStartSample, heard = utterance.count
        // Less than this is too little for Whisper to be sure of the first words: it drops
        // an utterance's opening "and" from a short window as often as not.
        guard heard - start >= Self.shortestCommitWindow else { return }
        let audio = Array(utterance[start..<heard]), context = committer.prompt
        let recognizer = recognizer, language = language, options = options
        // Whether the detector hears silence at the end of this audio: a pause there is real.
        let silent = silenceStart != nil
        lastPartialLength = heard
        commitTask = Task {
            let answer = try? await recognizer.decodeCommitting(audio, language: language, options: options, context: context)
            self.commitDecodeFinished(answer, start: start, heard: heard, silent: silent)
        }
    }

    /// The shortest window a commit decode hears, in samples (1.5 s).
    static let shortestCommitWindow = 24_000

    private func commitDecodeFinished(_ answer: WhisperTranscription?, start: Int, heard: Int, silent: Bool) {
        commitTask = nil
        guard !isOver, var committer, let answer else { return }
        let offset = Double(start) / 16_000
        let words = answer.heard ? answer.words.map {
            RecognizedWord(text: $0.text, start: $0.start + offset, end: $0.end + offset, confidence: $0.confidence)
        } : []
        let closed = committer.hypothesis(words, heardUntil: Double(heard) / 16_000, silent: silent, speech: speech)
        self.committer = committer
        readyClauses += closed.map { $0.shifted(by: utteranceOrigin) }
        let display = committer.display
        if !display.isEmpty, display != lastPartial { readyPartial = display }
    }

    /// Hands the detector and the leftover audio back for the next request.
    private func release() {
        recognizer.returnStream(stream)
    }

    /// A worker answer as a result; throws `emptyRecognition` for silence or no words (the
    /// worker's verdict, read, not judged again).
    static func result(from answer: WhisperTranscription) throws -> RecognitionResult {
        guard answer.heard else { throw RecognitionError.emptyRecognition }
        let words = answer.words.map {
            RecognizedWord(text: $0.text, start: $0.start, end: $0.end, confidence: $0.confidence)
        }
        return RecognitionResult(text: answer.text, confidence: answer.confidence,
                                 alternatives: answer.alternatives, words: words, isFinal: true)
    }
}

extension RecognizedWord {
    /// The word with its times moved by `seconds`.
    func shifted(by seconds: Double) -> RecognizedWord {
        RecognizedWord(text: text, start: start + seconds, end: end + seconds, confidence: confidence)
    }
}

extension RecognizedClause {
    /// The clause with its times moved by `seconds`.
    func shifted(by seconds: Double) -> RecognizedClause {
        RecognizedClause(words: words.map { $0.shifted(by: seconds) }, committedAt: committedAt + seconds, isTail: isTail)
    }
}

/// The pace at which audio arrives: as it is spoken (capture), or faster (a file read
/// ahead). A speculative decode pays only at the pace of speech, where it runs while the
/// endpoint's silence is still being heard.
struct ArrivalPace {
    /// How far back the pace is measured, in wall-clock time.
    static let span = Duration.milliseconds(250)
    private var received = 0
    private var arrivals: [(samples: Int, at: ContinuousClock.Instant)] = []

    /// Notes `samples` more samples arriving now.
    mutating func arrived(_ samples: Int, at now: ContinuousClock.Instant = .now) {
        received += samples
        arrivals.append((received, now))
        while arrivals.count > 2, now - arrivals[1].at > Self.span { arrivals.removeFirst() }
    }

    /// Whether the audio of the last `span` came at most about twice as fast as it plays (with
    /// 0.1 s of slack for a capture's uneven chunks).
    var isRealTime: Bool {
        guard let first = arrivals.first, let last = arrivals.last, arrivals.count > 1 else { return true }
        let audio = Double(last.samples - first.samples) / 16_000
        let wall = (last.at - first.at) / .seconds(1)
        return audio <= 2 * wall + 0.1
    }
}
