/// What the recognizer is listening for.
public enum RecognitionHint: Sendable, Hashable {
    /// Free speech, decoded with the full language model.
    case dictation
    /// A short answer: yes, no, correct, wrong, and their variants.
    case confirmation
    /// Command-like input described by a JSGF grammar (the grammar's text).
    case grammar(String)
}

/// How one recognition request behaves.
public struct RecognitionOptions: Sendable, Hashable {
    /// What the person is expected to say.
    public var hint: RecognitionHint
    /// Trailing silence, in milliseconds, that ends an utterance.
    public var endpointMilliseconds: Int
    /// Seconds to wait for speech to start before failing with `.speechTimeout`; nil waits forever.
    public var startTimeout: Double?
    /// Longest utterance, in seconds, before failing with `.utteranceTooLong`.
    public var maximumDuration: Double
    /// How many alternative transcripts to return besides the best one.
    public var alternativeCount: Int
    /// Commit words while the person speaks and hand them on in clauses (`.clause` events),
    /// by this policy; nil waits for the endpoint (turn by turn). A recognizer that cannot
    /// commit early (PocketSphinx, a two-language request) ignores it: its final result then
    /// has no `clauses`, and the turn is translated at its end.
    public var commitPolicy: CommitPolicy?
    /// The microphone this request listens to, when a recognizer hears several at once (a
    /// room's parties): requests on one channel carry its detector's noise estimate and the
    /// audio after the last endpoint from one to the next, and never another channel's.
    /// Nil is the one microphone of a dialogue.
    public var channel: String?
    /// With a `commitPolicy`: the language of the other person on the same microphone. Each
    /// clause then tells how much the audio it was committed from sounded like that language
    /// (`RecognizedClause.otherLanguageShare`); a recognizer that cannot tell leaves it nil.
    public var otherLocale: LocaleTag?

    /// Creates options; the defaults suit a dialogue turn.
    public init(hint: RecognitionHint = .dictation, endpointMilliseconds: Int = 500,
                startTimeout: Double? = nil, maximumDuration: Double = 60, alternativeCount: Int = 3,
                commitPolicy: CommitPolicy? = nil, channel: String? = nil) {
        self.channel = channel
        self.hint = hint
        self.endpointMilliseconds = endpointMilliseconds
        self.startTimeout = startTimeout
        self.maximumDuration = maximumDuration
        self.alternativeCount = alternativeCount
        self.commitPolicy = commitPolicy
    }
}

extension RecognitionOptions {
    /// The longest utterance with a `CommitPolicy`: the window slides, so length costs no
    /// more decoding, and a speaker who never pauses for the endpoint is still interpreted.
    public static let simultaneousMaximumDuration = 600.0

    /// A conversation's request: a turn's or an utterance's, ended by `endpointMilliseconds` of
    /// silence; interpreted while it is spoken when `interpreting` is a policy (and then as long
    /// as the speaker goes on); on `channel` when a recognizer hears several microphones.
    public static func conversation(endpointMilliseconds: Int, interpreting: CommitPolicy?,
                                    channel: String? = nil) -> RecognitionOptions {
        var options = RecognitionOptions(endpointMilliseconds: endpointMilliseconds, channel: channel)
        if let interpreting {
            options.commitPolicy = interpreting
            options.maximumDuration = simultaneousMaximumDuration
        }
        return options
    }
}

/// How a recognizer decides, while the person still speaks, which words of its growing
/// hypothesis will not change.
public enum CommitPolicy: String, Sendable, Hashable, CaseIterable, Codable {
    /// LocalAgreement-2: a word is committed once two successive decodes agree on it and
    /// on every word before it.
    case localAgreement = "local-agreement"
    /// AlignAtt, over word alignments: a word is committed when its aligned end lies far
    /// enough before the end of the audio heard, from one decode.
    case alignAtt = "align-att"
}

/// Committed words that end a clause: translated and spoken while the person goes on.
public struct RecognizedClause: Sendable, Hashable, Codable {
    /// The words, with times in seconds from the start of the request (`speechStarted`'s base).
    public var words: [RecognizedWord]
    /// Seconds of audio the request had received when the clause was committed.
    public var committedAt: Double
    /// Whether this is the tail decoded at the endpoint, not committed while the person spoke.
    public var isTail: Bool
    /// How much the audio the clause was committed from sounded like the other person's language
    /// (`RecognitionOptions.otherLocale`), 0…1: the model's share of that language against the
    /// request's own, in the decode whose words the clause holds. Nil when not asked or not known.
    public var otherLanguageShare: Double?

    /// Creates a clause.
    public init(words: [RecognizedWord], committedAt: Double, isTail: Bool = false, otherLanguageShare: Double? = nil) {
        self.words = words
        self.committedAt = committedAt
        self.isTail = isTail
        self.otherLanguageShare = otherLanguageShare
    }

    /// The words as one line: a word Whisper wrote as the rest of the one before it
    /// ("-disposed" after "ill", "'s") or as punctuation alone is joined to it without a space.
    public var text: String { RecognizedWord.line(words.map(\.text)) }
    /// Where the first word starts, in seconds from the start of the request.
    public var start: Double { words.first?.start ?? committedAt }
    /// Where the last word ends, in seconds from the start of the request.
    public var end: Double { words.last?.end ?? committedAt }
}

extension RecognizedWord {
    /// `words` as one line, each glued to the one before when it begins with a hyphen, an
    /// apostrophe or a closing mark.
    public static func line(_ words: [String]) -> String {
        var line = ""
        for word in words where !word.isEmpty {
            let glued = !line.isEmpty && "-'’,.;:!?)]»”".contains(word.first!)
            line += line.isEmpty || glued ? word : " " + word
        }
        return line
    }
}

/// One recognized word with its place in the utterance.
public struct RecognizedWord: Sendable, Hashable, Codable {
    /// The word, without pronunciation-variant marks such as `(2)`.
    public var text: String
    /// Start, in seconds from the start of the utterance.
    public var start: Double
    /// End, in seconds from the start of the utterance.
    public var end: Double
    /// Posterior probability of the word, 0…1.
    public var confidence: Double

    /// Creates a word.
    public init(text: String, start: Double, end: Double, confidence: Double) {
        self.text = text
        self.start = start
        self.end = end
        self.confidence = confidence
    }
}

/// What the recognizer made of an utterance, so far or finally.
public struct RecognitionResult: Sendable, Hashable, Codable {
    /// The best transcript.
    public var text: String
    /// Posterior probability of the best transcript, 0…1.
    public var confidence: Double
    /// Other transcripts, best first, without the best one and without duplicates.
    public var alternatives: [String]
    /// The words of the best transcript with their timings.
    public var words: [RecognizedWord]
    /// Whether this is the final result of the utterance.
    public var isFinal: Bool
    /// The utterance in each language of a `LanguagePairRecognizer` request, in the order
    /// asked; nil for a one-language request.
    public var hypotheses: [LanguageHypothesis]?
    /// Every clause of an utterance recognized with a `CommitPolicy`, the tail last: `text`
    /// is their words, in order, each once. Nil for a request that did not commit early.
    public var clauses: [RecognizedClause]?
    /// For a request with `RecognitionOptions.otherLocale`: how much the decoded audio sounded
    /// like that language, 0…1, as for `RecognizedClause.otherLanguageShare`.
    public var otherLanguageShare: Double?

    /// Creates a result.
    public init(text: String, confidence: Double = 0, alternatives: [String] = [],
                words: [RecognizedWord] = [], isFinal: Bool, hypotheses: [LanguageHypothesis]? = nil,
                clauses: [RecognizedClause]? = nil) {
        self.text = text
        self.confidence = confidence
        self.alternatives = alternatives
        self.words = words
        self.isFinal = isFinal
        self.hypotheses = hypotheses
        self.clauses = clauses
    }
}

/// What happened while feeding audio to a recognition request.
public enum RecognitionEvent: Sendable, Hashable {
    /// Speech started; seconds since the request began.
    case speechStarted(at: Double)
    /// The hypothesis changed while the person is still speaking.
    case partial(String)
    /// Committed words ended a clause while the person is still speaking (with a
    /// `CommitPolicy` only); the final result lists it again among its `clauses`.
    case clause(RecognizedClause)
    /// Trailing silence ended the utterance; seconds since the request began.
    case speechEnded(at: Double)
    /// The final result; the request is over.
    case final(RecognitionResult)
}

/// Why recognition failed, in words a person can act on.
public enum RecognitionError: Error, Sendable, Equatable, CustomStringConvertible {
    /// No model for the locale; `installed` lists the ones there are.
    case unsupportedLocale(LocaleTag, installed: [LocaleTag])
    /// The utterance ended without any recognized word.
    case emptyRecognition
    /// No speech started within the start timeout (seconds).
    case speechTimeout(Double)
    /// The utterance ran past the maximum length; `partial` is what was recognized.
    case utteranceTooLong(limit: Double, partial: RecognitionResult)
    /// A request was used again after it finished.
    case requestReused
    /// A model file is missing or cannot be loaded.
    case modelUnusable(path: String, reason: String)
    /// The audio could not be read or converted.
    case unreadableAudio(path: String, reason: String)
    /// A recognizer's runtime or model is not installed; `remedy` says how to install it.
    case notInstalled(what: String, remedy: String)
    /// A recognition worker failed twice on the same utterance; the text says how.
    case workerFailed(String)

    public var description: String {
        switch self {
        case let .unsupportedLocale(locale, installed):
            return "no speech model for \(locale); installed: \(RecognitionError.listed(installed)); "
                + "a model for another locale goes in its own folder under the models directory (see `parley languages`)"
        case .emptyRecognition:
            return "no speech was recognized (empty recognition)"
        case let .speechTimeout(seconds):
            return "no speech was heard within \(formatSeconds(seconds)) seconds"
        case let .utteranceTooLong(limit, _):
            return "the utterance ran past the \(formatSeconds(limit))-second limit; what was recognized so far is kept"
        case .requestReused:
            return "this recognition request has already finished; start a new one"
        case let .modelUnusable(path, reason):
            return "the speech model file \(path) cannot be used: \(reason)"
        case let .unreadableAudio(path, reason):
            return "cannot read audio from \(path): \(reason)"
        case let .notInstalled(what, remedy):
            return "\(what) is not installed; \(remedy)"
        case let .workerFailed(reason):
            return "\(reason), again after a restart; the utterance was not recognized"
        }
    }
}

/// One utterance being recognized.
///
/// A request is fed audio chunk by chunk. Feeding returns what happened:
/// speech starting, partial results, and — when trailing silence ends the
/// utterance — the final result. A request serves one utterance only.
public protocol RecognitionRequest: AnyObject, Sendable {
    /// Feeds captured audio in the recognizer's format; returns the events it caused.
    func append(_ chunk: PCMChunk) async throws -> [RecognitionEvent]

    /// No more audio: processes what was heard and returns the full final result. Once
    /// `append` has returned the final result (the utterance ended by itself), returns that one
    /// again: a key pressed as the speech ended gets the turn, not `requestReused`.
    func finish() async throws -> RecognitionResult

    /// Stops now and returns what was recognized so far (not final).
    func cancel() async -> RecognitionResult
}

/// Turns speech into text in the locales it has models for.
public protocol SpeechRecognizer: AnyObject, Sendable {
    /// Locales with an installed model.
    func supportedLocales() async -> [LocaleTag]

    /// Starts a request for one utterance in `locale`.
    func makeRequest(locale: LocaleTag, options: RecognitionOptions) async throws -> any RecognitionRequest

    /// Whether a request in `locale` would be served: the question a dialogue's side asks
    /// before it listens. A recognizer whose models use other codes than BCP 47 (Whisper's
    /// `no` for nb) answers it with its own mapping.
    func serves(_ locale: LocaleTag) async -> Bool
}

extension SpeechRecognizer {
    /// `locale` itself, or its bare language, is among `supportedLocales()`.
    public func serves(_ locale: LocaleTag) async -> Bool {
        let locales = await supportedLocales()
        return locales.contains(locale) || locales.contains(LocaleTag(language: locale.language))
    }
}

/// `2`, `2.5`: seconds without a trailing `.0`.
func formatSeconds(_ value: Double) -> String {
    value == value.rounded() ? String(Int(value)) : String(value)
}

extension RecognitionError {
    /// Installed locales for a sentence: "none", the locales, or past eight (Whisper's 99
    /// languages would bury the sentence) their count.
    public static func listed(_ installed: [LocaleTag]) -> String {
        if installed.isEmpty { return "none" }
        if installed.count > 8 { return "\(installed.count) locales and languages" }
        return installed.map(\.description).joined(separator: ", ")
    }
}
