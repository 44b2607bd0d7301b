import Foundation

/// One answer frame: the request's id, and the answer or the worker's refusal (`ok` false:
/// the one error answer, for a malformed request or one the model cannot serve).
struct WhisperReply<Answer: Codable & Sendable & Equatable>: Codable, Sendable, Equatable {
    enum Outcome: Sendable, Equatable {
        case answer(Answer)
        case refused(String)
    }

    /// The request's id; nil when the worker could not read it.
    var id: Int?
    var outcome: Outcome

    private enum Keys: String, CodingKey { case id, ok, error }

    init(id: Int?, _ outcome: Outcome) {
        self.id = id
        self.outcome = outcome
    }

    init(from decoder: any Swift.Decoder) throws {
        let container = try decoder.container(keyedBy: Keys.self)
        id = try container.decodeIfPresent(Int.self, forKey: .id)
        outcome = try container.decode(Bool.self, forKey: .ok)
            ? .answer(try Answer(from: decoder)) : .refused(try container.decode(String.self, forKey: .error))
    }

    func encode(to encoder: any Swift.Encoder) throws {
        var container = encoder.container(keyedBy: Keys.self)
        try container.encodeIfPresent(id, forKey: .id)
        switch outcome {
        case let .answer(answer):
            try container.encode(true, forKey: .ok)
            try answer.encode(to: encoder)
        case let .refused(error):
            try container.encode(false, forKey: .ok)
            try container.encode(error, forKey: .error)
        }
    }
}

/// The id of an answer frame, all the reader thread needs to hand it to its request.
struct WhisperReplyID: Decodable {
    var id: Int?
}

/// One window decoded for an answer, and its verdict: the short window's, then the full
/// window's when the worker gave a second opinion (for the log and the counts).
struct WhisperDecode: Codable, Sendable, Equatable {
    var window: WhisperWindow
    var silent: Bool
}

/// The answer to `transcribe` and to `alternative`: one reading and how it was heard.
struct WhisperTranscription: Codable, Sendable, Equatable {
    struct Word: Codable, Sendable, Equatable {
        var text: String
        var start: Double
        var end: Double
        var confidence: Double
    }

    /// The reading; empty when silent.
    var text: String
    /// The worker's verdict (Whisper's no-speech rule, `silence.py`): Parley reads it, never judges again.
    var silent: Bool
    var averageLogProbability: Double
    var confidence: Double
    var noSpeechProbability: Double
    var alternatives: [String]
    var words: [Word]
    /// The window this reading was decoded in.
    var window: WhisperWindow
    /// Whether the worker decoded the full window too (`WhisperCall.Transcribe.secondOpinion`).
    var secondOpinion: Bool
    /// The windows decoded for this answer, in order.
    var decodes: [WhisperDecode]
    /// The worker's own time per stage (encode, decode, align…), in seconds.
    var seconds: [String: Double]
    var audioSeconds: Double
    /// For a request with `sharesOf`: the model's probability of each of its two languages,
    /// summing to 1, in the window this reading is from.
    var languageShares: [Double]?
    /// The id of the request that decoded it, which an `alternative` request names (not on the
    /// wire: the reply's id).
    var request: Int?

    enum CodingKeys: String, CodingKey {
        case text, silent, confidence, alternatives, words, window, seconds, decodes
        case averageLogProbability = "avg_logprob", noSpeechProbability = "no_speech_prob"
        case secondOpinion = "second_opinion", audioSeconds = "audio_seconds", languageShares = "language_shares"
    }

    init(text: String = "", silent: Bool = false, averageLogProbability: Double = 0, confidence: Double = 0,
         noSpeechProbability: Double = 0, alternatives: [String] = [], words: [Word] = [],
         window: WhisperWindow = .short, secondOpinion: Bool = false, decodes: [WhisperDecode] = [],
         seconds: [String: Double] = [:], audioSeconds: Double = 0, languageShares: [Double]? = nil, request: Int? = nil) {
        (self.text, self.silent, self.averageLogProbability, self.confidence) = (text, silent, averageLogProbability, confidence)
        (self.noSpeechProbability, self.alternatives, self.words) = (noSpeechProbability, alternatives, words)
        (self.window, self.secondOpinion, self.decodes) = (window, secondOpinion, decodes)
        (self.seconds, self.audioSeconds, self.languageShares) = (seconds, audioSeconds, languageShares)
        self.request = request
    }

    /// The second language's share (`languageShares`): for a decode in a side's language, the
    /// other person's; nil when the shares were not asked.
    var otherLanguageShare: Double? { languageShares.flatMap { $0.count == 2 ? $0[1] : nil } }

    /// Whether the reading holds speech: not called silent, and some text.
    var heard: Bool { !silent && !text.isEmpty }
}

/// The answer to `pair`: the utterance in each language asked, in order.
struct WhisperPairAnswer: Codable, Sendable, Equatable {
    /// One language's decoding.
    struct Reading: Codable, Sendable, Equatable {
        var language: String
        /// Empty when silent.
        var text: String
        /// The worker's verdict (the pair's no-speech rule, `silence.py`).
        var silent: Bool
        /// Not decoded: the other language was overwhelmingly more probable.
        var skipped: Bool
        var averageLogProbability: Double
        var confidence: Double
        var languageProbability: Double
        var noSpeechProbability: Double

        enum CodingKeys: String, CodingKey {
            case language, text, silent, skipped, confidence
            case averageLogProbability = "avg_logprob", languageProbability = "language_prob"
            case noSpeechProbability = "no_speech_prob"
        }
    }

    var hypotheses: [Reading]
    var window: WhisperWindow
    /// Whether the worker decoded the full window too.
    var secondOpinion: Bool
    /// The windows decoded for this answer, in order (silent: both readings were).
    var decodes: [WhisperDecode]
    var seconds: [String: Double]
    var audioSeconds: Double

    enum CodingKeys: String, CodingKey {
        case hypotheses, window, seconds, decodes
        case secondOpinion = "second_opinion", audioSeconds = "audio_seconds"
    }
}

/// The answer to `ping`: the id and `ok` alone.
struct WhisperPong: Codable, Sendable, Equatable {}

/// The worker's first message: whether the model loaded, and the protocol it speaks.
struct WhisperReady: Codable, Sendable, Equatable {
    var ready: Bool
    /// The protocol version (`WhisperFrames.protocolVersion`); nil from workers older than
    /// protocol 4.
    var `protocol`: Int?
    var error: String?
    var languages: [String]?
    /// The mel bands the model takes (80; 128 for large-v3).
    var mels: Int?
    var multilingual: Bool?
    var verified: Bool?
    var loadSeconds: Double?
    var pid: Int32?

    enum CodingKeys: String, CodingKey {
        case ready, `protocol`, error, languages, mels, multilingual, verified, pid
        case loadSeconds = "load_seconds"
    }
}
