import Foundation
import Locales
public import ParleyCore
public import Recognition
import Synchronization

/// Speech recognition with Whisper, in every language of its model, through
/// one long-lived worker process (`WhisperWorker`).
///
/// ```swift
/// let whisper = WhisperRecognizer(worker: WhisperWorker(launch: try installation.launch()),
///                                 detector: SphinxSpeechDetector.make)
/// try await whisper.start()  // at launch, in parallel with the rest
/// let results = try await whisper.transcribeFile("question.wav", locale: LocaleTag("es-ES")!)
/// ```
///
/// The language is always the side's own: detection over 99 languages is
/// wrong too often on short utterances.
public final class WhisperRecognizer: SpeechRecognizer, StreamingRecognizer, Sendable {
    /// How decoding trades speed for detail.
    public struct Tuning: Sendable, Equatable {
        /// Re-decode the growing utterance for partial results.
        public var partialResults = true
        /// Seconds of new speech between partial decodes.
        public var partialInterval = 0.5
        /// Seconds of new audio between commit decodes (simultaneous interpretation); they run
        /// one at a time, so a decode that takes longer spaces them more.
        public var commitInterval = 0.5
        /// AlignAtt's margin (`ClauseCommitter.alignAttMargin`).
        public var alignAttMargin = ClauseCommitter.defaultAlignAttMargin
        /// Start the final decode when the detector first hears silence, before the endpoint.
        public var speculative = true
        /// Milliseconds of silence after which the detector says speech stopped, which is when
        /// the speculative decode starts (at most the endpoint).
        public var speculativeMilliseconds = 200
        /// Most alternatives a final result carries; each one more widens the decoder's beam,
        /// which makes every final decode slower.
        public var maximumAlternatives = 1
        /// Word times and word confidences in final results; they cost one more decoder pass per final decode.
        public var wordTimes = true
        /// Seconds of silence after the audio of a partial decode: shorter than the final's 3 s,
        /// so the encoder's window (and the worker's time) is smaller while the person speaks.
        public var partialPad = 1.0
        /// Text that biases decoding toward expected names and terms (Whisper's prompt).
        public var phrases: [String] = []
        /// Seconds of padding after the audio of a final decode (`defaultFinalPad` when nil).
        public var finalPad: Double? = nil
        /// Pad a final decode as stock `transcribe` pads its window — zero frames after the
        /// features — rather than with silence appended to the audio (`WhisperPadding`; why, in
        /// docs/recognition.md). With silence appended instead, the worker's full-window second
        /// opinion hears that silence's features before its zero frames.
        public var padFeatures = true
        /// Decode a final result again in the full 30 s window, as stock `transcribe` does, when
        /// it holds a word the language's word list does not (`WordLexicon`): the short window's
        /// rare slips are non-words ("ill-sposed"). The reading with fewer unknown words wins.
        /// Instead, an alternative of the beam (when one was asked for) whose words the list
        /// all holds is taken, without decoding again; if the worker refuses it, the first
        /// reading stands (a final result costs at most two round trips).
        /// A final result called silent or said twice over (or a pair whose short-window
        /// silence decides it) is decoded again there too, by the worker inside the same
        /// request (`worker/parley_worker/second_opinion.py`, which owns that rule), and the
        /// full window's verdict kept: the silence rule is Whisper's own for the full window,
        /// and the short window's no-speech probability runs higher on speech
        /// (docs/recognition.md, "Silence gets a second opinion too").
        public var secondOpinion = true

        /// Creates the default tuning.
        public init() {}

        /// Seconds of padding after a final decode's audio unless `finalPad` says otherwise: with
        /// much less, the decoder can repeat the end of the utterance over and over.
        public static let defaultFinalPad = 3.0

        /// How a final decode (one language or a pair) is padded.
        var finalPadding: WhisperPadding {
            let seconds = finalPad ?? Self.defaultFinalPad
            return padFeatures ? .zeroFrames(seconds: seconds) : .silence(seconds: seconds)
        }

        /// The detector's own hangover for `endpoint` milliseconds.
        func hangoverMilliseconds(endpoint: Int) -> Int { min(speculativeMilliseconds, endpoint) }
    }

    /// The worker that decodes.
    public let worker: WhisperWorker
    /// Decoding settings.
    public let tuning: Tuning
    let languages = Mutex<Set<String>?>(nil)
    private let startFailure = Mutex<(any Error)?>(nil)
    private let phraseList: Mutex<[String]>
    /// The detector kept for the next request, per channel (`RecognitionOptions.channel`, "" for none).
    let streams = Mutex<[String: WhisperAudioStream]>([:])
    /// Makes each stream's voice activity detector.
    let makeDetector: SpeechDetectorFactory
    private let lexiconSource: @Sendable (String) -> WordLexicon?
    private let lexicons = Mutex<[String: Task<WordLexicon?, Never>]>([:])
    private let secondOpinions = Mutex(0)
    private let alternativesChosen = Mutex(0)

    /// Creates a recognizer over `worker`; nothing starts until `start()` or the first request.
    /// `detector` makes the voice activity detector that finds where each utterance starts and
    /// ends. `lexicon` gives the word list of a Whisper language code for second opinions (the
    /// installed ones by default).
    public init(worker: WhisperWorker, detector: @escaping SpeechDetectorFactory, tuning: Tuning = Tuning(),
                lexicon: @escaping @Sendable (String) -> WordLexicon? = { WordLexicon.installed(language: $0) }) {
        self.worker = worker
        makeDetector = detector
        self.tuning = tuning
        phraseList = Mutex(tuning.phrases)
        lexiconSource = lexicon
    }

    /// How many final results were decoded again in the full window.
    public var secondOpinionCount: Int { secondOpinions.withLock { $0 } }

    /// How many final results took the beam's alternative, whose words the word list holds,
    /// instead of a reading with a word it lacks (and so needed no second opinion).
    public var alternativeChosenCount: Int { alternativesChosen.withLock { $0 } }

    /// Counts one decode again in the full window.
    func countSecondOpinion() { secondOpinions.withLock { $0 += 1 } }

    /// The names and terms decoding favours now (`--phrases`, `:phrases`).
    public var phrases: [String] { phraseList.withLock { $0 } }

    /// Replaces the phrases for the next utterances.
    public func setPhrases(_ phrases: [String]) {
        phraseList.withLock { $0 = phrases }
    }

    /// Starts the worker and loads the model; call early, it takes seconds. A worker that
    /// could not start at all (not installed, a damaged model) is not tried again: the same
    /// error is thrown at once.
    public func start() async throws {
        if let failure = startFailure.withLock({ $0 }) { throw failure }
        if languages.withLock({ $0 != nil }) { return }
        do {
            let list = try await worker.start()
            languages.withLock { $0 = Set(list) }
        } catch {
            startFailure.withLock { $0 = error }
            throw error
        }
    }

    /// One bare-language locale per language of the model (`en`, `es`, …).
    public func supportedLocales() async -> [LocaleTag] {
        guard (try? await start()) != nil else { return [] }
        return (languages.withLock { $0 } ?? []).sorted().compactMap { LocaleTag(language: $0) }
    }

    /// Whether the model knows `locale`'s language (starting the worker if needed).
    public func serves(_ locale: LocaleTag) async -> Bool {
        guard (try? await start()) != nil else { return false }
        return knows(locale)
    }

    /// Whether the started model knows `locale`'s language, in Whisper's codes (nb → no).
    func knows(_ locale: LocaleTag) -> Bool {
        ModelLanguageCode.whisperServes(locale, languages: languages.withLock { $0 } ?? [])
    }

    /// Starts a request for one utterance that continues the audio of the previous one.
    public func makeRequest(locale: LocaleTag, options: RecognitionOptions) async throws -> any RecognitionRequest {
        try await makeRequest(locale: locale, options: options, newStream: false)
    }

    /// Starts a request; `newStream` resets the detector's noise estimate (a new file or capture).
    public func makeRequest(locale: LocaleTag, options: RecognitionOptions,
                            newStream: Bool) async throws -> any RecognitionRequest {
        try await start()
        let language = ModelLanguageCode.whisper(locale.language)
        guard knows(locale) else {
            throw RecognitionError.unsupportedLocale(locale, installed: await supportedLocales())
        }
        let stream = try takeStream(fresh: newStream, endpoint: options.endpointMilliseconds, channel: options.channel ?? "")
        if tuning.secondOpinion { _ = lexiconTask(language) }  // read while the person speaks
        return WhisperRequest(recognizer: self, language: language, options: options, stream: stream)
    }

    /// Decodes one utterance: a final result with words and alternatives, or a quick partial.
    /// An utterance longer than one window (`WhisperWindows`) is decoded window after window
    /// and its readings joined; a partial decode of one hears its last window only.
    func decode(_ audio: [Int16], language: String, options: RecognitionOptions, final: Bool,
                context: String? = nil, committing: Bool = false) async throws -> WhisperTranscription {
        let windows = WhisperWindows.ranges(of: audio)
        guard windows.count > 1 else {
            return try await decodeWindow(audio, language: language, options: options, final: final, context: context,
                                          committing: committing)
        }
        let decoded = final ? windows : [windows[windows.count - 1]]
        var answers: [WhisperTranscription] = []
        for range in decoded {
            try Task.checkCancellation()
            answers.append(try await decodeWindow(Array(audio[range]), language: language, options: options, final: final,
                                                  context: answers.isEmpty ? context : nil, committing: committing))
        }
        return WhisperTranscription.joined(answers, offsets: decoded.map { Double($0.lowerBound) / 16_000 })
    }

    /// Decodes one window of an utterance. Round trips to the worker: one, in which the worker
    /// itself decodes the full window too when the short window calls the reading silent or
    /// said twice over (it owns the silence verdict and that rule); then, for a final result
    /// with a word the language's word list does not hold (a rule that needs the list, so
    /// Parley owns it), one more: the beam's alternative the list knows, or else the full
    /// window (`Tuning.secondOpinion`). Never more than two. A commit decode (`committing`)
    /// is never decoded again in the full window, by the worker or here: what it reads counts
    /// only once the next one agrees, and a full-window decode, a second or more, would hold
    /// up both. It may still take the beam's alternative.
    func decodeWindow(_ audio: [Int16], language: String, options: RecognitionOptions,
                      final: Bool, context: String? = nil, committing: Bool = false) async throws -> WhisperTranscription {
        let alternatives = final ? min(options.alternativeCount, tuning.maximumAlternatives) : 0
        let prompt = prompt(for: options, context: context)
        let secondOpinion = final && tuning.secondOpinion && audio.count < Self.fullWindowSamples
        let sharesOf = sharesOf(language, options: options)
        let answer = try await worker.transcribe(audio, language: language, prompt: prompt,
                                                 beam: 1 + alternatives, alternatives: alternatives,
                                                 words: final && tuning.wordTimes,
                                                 padding: final ? tuning.finalPadding : .silence(seconds: tuning.partialPad),
                                                 secondOpinion: secondOpinion && !committing, channel: options.channel ?? "",
                                                 sharesOf: sharesOf)
        if answer.secondOpinion { countSecondOpinion() }
        guard secondOpinion, !answer.secondOpinion, answer.heard,
              let lexicon = await lexiconTask(language).value else { return answer }
        try Task.checkCancellation()
        let unknown = unknownWords(in: answer.text, lexicon: lexicon)
        guard !unknown.isEmpty else { return answer }
        if let text = answer.alternatives.first(where: { unknownWords(in: $0, lexicon: lexicon).isEmpty }) {
            return await wordAlternative(text, of: answer) ?? answer
        }
        guard !committing else { return answer }
        countSecondOpinion()
        let second = try await worker.transcribe(audio, language: language, prompt: prompt,
                                                 beam: 1 + alternatives, alternatives: alternatives,
                                                 words: tuning.wordTimes, padding: .fullWindow, channel: options.channel ?? "",
                                                 sharesOf: sharesOf)
        guard second.heard, unknownWords(in: second.text, lexicon: lexicon).count < unknown.count else { return answer }
        return second
    }

    /// The words of `text` that `lexicon` lacks, but for the names and terms a person said they
    /// expect (`phrases`): those are words, whatever the list says.
    func unknownWords(in text: String, lexicon: WordLexicon) -> [String] {
        let expected = Set(WordLexicon.words(in: phrases.joined(separator: " ")))
        return lexicon.unknownWords(in: text).filter { !expected.contains($0) }
    }

    /// `answer` with its alternative `text`, whose words the list all holds, made the reading
    /// by the worker (with its own word times and confidence), or nil when the worker refused.
    /// The short window's slips are near-ties that the beam's other hypothesis often reads
    /// right ("ill-sposed" beside "ill-disposed"): taking it costs a round trip and an
    /// alignment (~35 ms), where a decode in the full window costs a second or more.
    private func wordAlternative(_ text: String, of answer: WhisperTranscription) async -> WhisperTranscription? {
        guard let chosen = await worker.alternative(text, of: answer, words: tuning.wordTimes),
              chosen.heard, chosen.text == text else { return nil }
        alternativesChosen.withLock { $0 += 1 }
        return chosen
    }

    /// The languages whose shares a decode in `language` tells: its own and the other person's
    /// (`RecognitionOptions.otherLocale`), when the model knows that one and it is another.
    func sharesOf(_ language: String, options: RecognitionOptions) -> [String]? {
        guard let other = options.otherLocale, knows(other) else { return nil }
        let code = ModelLanguageCode.whisper(other.language)
        return code == language ? nil : [language, code]
    }

    /// Utterances at least this long are never decoded again: the full window holds 30 s.
    static let fullWindowSamples = 29 * 16_000

    /// The word list of `language`, read once in the background.
    func lexiconTask(_ language: String) -> Task<WordLexicon?, Never> {
        lexicons.withLock { tasks in
            if let task = tasks[language] { return task }
            let source = lexiconSource
            let task = Task.detached(priority: .utility) { source(language) }
            tasks[language] = task
            return task
        }
    }

    /// One commit decode of simultaneous interpretation: the window after the last clause,
    /// the committed text before it as `context`, decoded as a final result is (word times, the
    /// word list's check and the beam's alternative) but never again in the full window: what
    /// it commits needs the next decode's agreement, and a full-window decode takes a second
    /// or more.
    func decodeCommitting(_ audio: [Int16], language: String, options: RecognitionOptions,
                          context: String?) async throws -> WhisperTranscription {
        try await decode(audio, language: language, options: options, final: true, context: context, committing: true)
    }

    /// The prompt: the phrases a person expects, for a yes/no answer its vocabulary, and the
    /// text said before the audio (`context`), last, where Whisper reads what came before.
    func prompt(for options: RecognitionOptions, context: String? = nil) -> String? {
        var phrases = self.phrases
        if options.hint == .confirmation { phrases += ConfirmationVocabulary.words }
        let parts = [phrases.isEmpty ? nil : phrases.joined(separator: ", "), context].compactMap { $0 }
        return parts.isEmpty ? nil : parts.joined(separator: " ")
    }
}
