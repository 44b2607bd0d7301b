import Foundation

/// The framed binary protocol spoken with the Whisper worker on its pipes
/// (see `worker/whisper_worker.py`).
///
/// A request is a little-endian `u32` header length, the header as UTF-8
/// JSON, a `u32` payload length and the payload (the utterance's log-mel
/// features, float32 little-endian, mel by mel: `WhisperFeatures`). A
/// response is a `u32` length and a JSON body. Lengths make every frame's end
/// explicit, so a worker that dies mid-answer is never mistaken for one that
/// answered.
enum WhisperFrames {
    /// The longest response accepted; a longer length means the stream is out of step.
    static let maximumResponseBytes = 16 << 20

    /// One request frame.
    static func request(header: some Encodable, payload: [Float]) throws -> Data {
        let json = try JSONEncoder().encode(header)
        var data = Data(capacity: 8 + json.count + payload.count * 4)
        append(UInt32(json.count), to: &data)
        data.append(json)
        append(UInt32(payload.count * 4), to: &data)
        #if _endian(little)
        payload.withUnsafeBytes { data.append(contentsOf: $0) }
        #else
        payload.map { $0.bitPattern.littleEndian }.withUnsafeBytes { data.append(contentsOf: $0) }
        #endif
        return data
    }

    /// A `u32` length read from the first four bytes of `bytes`.
    static func length(_ bytes: some Collection<UInt8>) -> Int {
        bytes.prefix(4).enumerated().reduce(0) { $0 | Int($1.element) << (8 * $1.offset) }
    }

    private static func append(_ value: UInt32, to data: inout Data) {
        withUnsafeBytes(of: value.littleEndian) { data.append(contentsOf: $0) }
    }
}

/// The header of a transcription request.
struct WhisperRequestHeader: Codable, Sendable, Equatable {
    var op = "transcribe"
    var id: Int
    /// The Whisper language code (`en`, `es`).
    var language: String
    /// Text that biases decoding toward expected names and terms.
    var prompt: String?
    /// Beam size.
    var beam: Int
    /// Extra hypotheses to return as alternatives.
    var alternatives: Int
    /// Whether to align words to times (costs one more decoder pass).
    var words: Bool
    /// The two forced languages of a `pair` request, in order.
    var languages: [String]? = nil
    /// `full` when the features fill the 30 s window stock transcribe encodes.
    var window: String? = nil
    /// The payload's mel bands (the model's: the ready message says how many).
    var mels = 80
    /// The payload's frames (100 a second, padding included).
    var frames = 0
    /// The utterance's own length, without padding: it bounds the tokens and times the words.
    var audioSeconds = 0.0
    /// An `alternative` request's transcribe request (its id) and the alternative it chooses.
    var of: Int? = nil
    var text: String? = nil

    enum CodingKeys: String, CodingKey {
        case op, id, language, prompt, beam, alternatives, words, languages, window, mels, frames, of, text
        case audioSeconds = "audio_seconds"
    }
}

/// The worker's first message: whether the model loaded.
struct WhisperReady: Decodable, Sendable, Equatable {
    var ready: Bool
    var error: String?
    var languages: [String]?
    var verified: Bool?
    var pid: Int32?
    /// The protocol the worker speaks: 3 takes features (earlier ones took PCM).
    var `protocol`: Int?
    /// The mel bands the model takes (80; 128 for large-v3).
    var mels: Int?
}

/// The worker's answer to a transcription request.
struct WhisperAnswer: Decodable, Sendable, Equatable {
    struct Word: Decodable, Sendable, Equatable {
        var text: String
        var start: Double
        var end: Double
        var confidence: Double
    }

    var id: Int?
    var ok: Bool
    var error: String?
    var text: String?
    var silent: Bool?
    var confidence: Double?
    var noSpeechProbability: Double?
    var alternatives: [String]?
    var words: [Word]?
    /// A `pair` request's answer: the utterance in each language asked.
    var hypotheses: [PairHypothesis]?
    /// The encoder window the answer was decoded in: `short` or `full`.
    var window: String?
    /// The worker's own time per stage (encode, decode, align…), in seconds.
    var seconds: [String: Double]?

    enum CodingKeys: String, CodingKey {
        case id, ok, error, text, silent, confidence, alternatives, words, hypotheses, window, seconds
        case noSpeechProbability = "no_speech_prob"
    }

    /// One language's decoding in a `pair` answer.
    struct PairHypothesis: Decodable, Sendable, Equatable {
        var language: String
        var text: String
        var silent: Bool
        var averageLogProbability: Double
        var languageProbability: Double

        enum CodingKeys: String, CodingKey {
            case language, text, silent
            case averageLogProbability = "avg_logprob"
            case languageProbability = "language_prob"
        }
    }
}
