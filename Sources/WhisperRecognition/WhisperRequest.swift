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
/// are commit decodes instead of partial ones (`CommitDecodes`): a `ClauseCommitter` takes
/// each hypothesis, commits the words its policy calls stable and hands on the clauses they
/// end (`.clause` events). Each decode hears only the window after the last clause, with the
/// committed text before it as the prompt, so committed audio is never decoded again; the
/// final decode hears the last window, and its words are the tail.
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
    /// Where, in `utterance`, the detector last said speech stopped; nil while speech goes on.
    private var silenceStart: Int?
    private var partialRunning = false
    private var readyPartial: String?
    private var lastPartial = ""
    private var lastPartialLength = 0
    private var speculative: (range: Range<Int>, task: Task<RecognitionResult, any Error>)?
    /// Commits words while the person speaks (with a `CommitPolicy`).
    private var commits: CommitDecodes?
    private var isOver = false
    /// The final decode the utterance's end began in `append`: `finish()` answers with its
    /// result too, waiting for it if it is still running.
    private var endedWith: Task<RecognitionResult, any Error>?
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
            commits = CommitDecodes(policy: policy, alignAttMargin: recognizer.tuning.alignAttMargin)
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
        if let endedWith { return try await endedWith.value }
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
            commits?.append(step.count, heard: heard)
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
            commits?.utteranceStarted(samples: utterance.count, step: step.count, heard: heard,
                                      origin: tracker.seconds(max(0, tracker.position - utterance.count)))
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
            let final = Task { try await decodeFinal() }
            endedWith = final
            return try await final.value
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
        return min(commits?.windowStart(in: utterance.count) ?? 0, end)..<end
    }

    private func decodeFinal() async throws -> RecognitionResult {
        let range = finalRange
        commits?.running?.cancel()
        let result: RecognitionResult?
        do {
            if let speculative, speculative.range == range {
                result = try await speculative.task.value
            } else {
                result = try await decode(Array(utterance[range]))
            }
        } catch RecognitionError.emptyRecognition where commits?.hasCommitted == true {
            result = nil  // the committed words are the utterance; nothing after them
        }
        guard var commits else { return try result ?? { throw RecognitionError.emptyRecognition }() }
        let recognizer = recognizer, language = language, pair = pairLanguage, options = options
        let final = try await commits.finalResult(result, of: range, in: utterance) { audio, prompt in
            try await Self.decodeFinal(audio, recognizer, language, pair, options, context: prompt)
        }
        self.commits = commits
        recognizer.worker.logger.debug("tail", metadata: commits.tailReport)
        return final
    }

    private func decode(_ audio: [Int16]) async throws -> RecognitionResult {
        try await Self.decodeFinal(audio, recognizer, language, pairLanguage, options, context: commits?.prompt)
    }

    private func startSpeculativeDecode() {
        let range = finalRange
        // Audio read faster than it is spoken (a file) already holds what follows the silence:
        // a decode started now would most often be of speech that goes on.
        guard recognizer.tuning.speculative, speculative?.range != range, pace.isRealTime, !range.isEmpty else { return }
        let recognizer = recognizer, language = language, pair = pairLanguage, options = options
        let audio = Array(utterance[range]), context = commits?.prompt
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
        if commits != nil { return startCommitDecodeIfDue() }
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
        var events = (commits?.takeClauses() ?? []).map(RecognitionEvent.clause)
        guard let text = readyPartial else { return events }
        readyPartial = nil
        lastPartial = text
        events.append(.partial(text))
        return events
    }

    // MARK: Committing while the person speaks

    /// Starts a commit decode of the window when `Tuning.commitInterval` of new audio came and
    /// none runs (`CommitDecodes.nextWindow`). Unlike partial decodes, these go on through the
    /// detector's silence: a pause is where a clause ends.
    private func startCommitDecodeIfDue() {
        guard tracker.hasSpeech, !isOver,
              let window = commits?.nextWindow(of: utterance, interval: recognizer.tuning.commitInterval,
                                               silent: silenceStart != nil) else { return }
        let recognizer = recognizer, language = language, options = options
        commits?.running = Task {
            let answer = try? await recognizer.decodeCommitting(window.audio, language: language, options: options,
                                                                context: window.context)
            self.commitDecodeFinished(answer, of: window)
        }
    }

    private func commitDecodeFinished(_ answer: WhisperTranscription?, of window: CommitDecodes.Window) {
        commits?.running = nil
        guard !isOver, let answer, let display = commits?.decoded(answer, of: window) else { return }
        if !display.isEmpty, display != lastPartial { readyPartial = display }
    }

    /// Hands the detector and the leftover audio back for the next request.
    private func release() {
        recognizer.returnStream(stream)
    }
}
