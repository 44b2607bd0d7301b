import Foundation

/// The framed binary protocol spoken with the Whisper worker on its pipes
/// (see `worker/whisper_worker.py` and `worker/parley_worker/protocol.py`).
///
/// A request is a little-endian `u32` header length, the header as UTF-8
/// JSON (`WhisperRequest.Frame`), a `u32` payload length and the payload (the
/// utterance's log-mel features, float32 little-endian, mel by mel:
/// `WhisperFeatures`). An answer is a `u32` length and a JSON body
/// (`WhisperReply`). Lengths make every frame's end explicit, so a worker that
/// dies mid-answer is never mistaken for one that answered. JSON is canonical
/// on both sides — sorted keys, no spaces, no escaped slashes — so that one
/// message has one encoding: the golden frames in `worker/tests/golden` pin it.
enum WhisperFrames {
    /// The protocol version this Parley speaks; the worker's ready message must name the same.
    static let protocolVersion = 5

    /// The longest response accepted; a longer length means the stream is out of step.
    static let maximumResponseBytes = 16 << 20

    /// The canonical JSON encoder (sorted keys, no spaces, slashes as they are).
    static func encoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }

    /// One request frame.
    static func request(_ frame: WhisperCall.Frame, payload: [Float]) throws -> Data {
        let json = try encoder().encode(frame)
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

    /// One answer (or ready) frame: its length, then its canonical JSON.
    static func answer(_ body: some Encodable) throws -> Data {
        let json = try encoder().encode(body)
        var data = Data(capacity: 4 + json.count)
        append(UInt32(json.count), to: &data)
        data.append(json)
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

/// The encoder window a request's features fill: `short`, the utterance and its padding;
/// `full`, the 30 s stock `transcribe` encodes.
enum WhisperWindow: String, Codable, Sendable {
    case short, full
}

/// One request to the worker: a case per operation, each with its own fields. Its answer
/// type: `WhisperTranscription` for `transcribe` and `alternative` (an alternative's answer is
/// the same reading with another hypothesis chosen), `WhisperPairAnswer` for `pair`,
/// `WhisperPong` for `ping`.
enum WhisperCall: Sendable, Equatable {
    case transcribe(Transcribe)
    case pair(Pair)
    case alternative(Alternative)
    case ping

    /// One utterance's features decoded in one language.
    struct Transcribe: Codable, Sendable, Equatable {
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
        var window: WhisperWindow
        /// Whether the worker may decode the utterance again in the full window, in this same
        /// request, when its own rules call for it (silent, or said twice: `second_opinion.py`).
        var secondOpinion: Bool
        /// Two languages whose shares of the window's speech the answer tells
        /// (`WhisperTranscription.languageShares`), from the same encoder pass.
        var sharesOf: [String]?
        var features = WhisperFeatureShape()

        enum CodingKeys: String, CodingKey {
            case language, prompt, beam, alternatives, words, window
            case secondOpinion = "second_opinion", sharesOf = "shares_of"
        }
    }

    /// One utterance's features decoded in two forced languages from one encoder pass.
    struct Pair: Codable, Sendable, Equatable {
        /// The two languages, in order.
        var languages: [String]
        var prompt: String?
        var window: WhisperWindow
        /// As for `Transcribe` (the pair's rule: silence decides, or a reading is said twice).
        var secondOpinion: Bool
        var features = WhisperFeatureShape()

        enum CodingKeys: String, CodingKey {
            case languages, prompt, window
            case secondOpinion = "second_opinion"
        }
    }

    /// The last transcribe request's answer again with one of its alternatives as the reading.
    struct Alternative: Codable, Sendable, Equatable {
        /// The transcribe request's id.
        var of: Int
        /// The alternative chosen.
        var text: String
        var words: Bool
    }

    /// The payload's shape and the utterance's own length (set when the features are made).
    var features: WhisperFeatureShape? {
        get {
            switch self {
            case let .transcribe(request): request.features
            case let .pair(request): request.features
            case .alternative, .ping: nil
            }
        }
        set {
            guard let newValue else { return }
            switch self {
            case var .transcribe(request): request.features = newValue; self = .transcribe(request)
            case var .pair(request): request.features = newValue; self = .pair(request)
            case .alternative, .ping: break
            }
        }
    }
}

/// The shape of a request's features: the payload's mel bands (the model's: the ready message
/// says how many) and frames (100 a second, padding included), and the utterance's own length
/// without padding, which bounds the tokens and times the words.
struct WhisperFeatureShape: Codable, Sendable, Equatable {
    var mels = 80
    var frames = 0
    var audioSeconds = 0.0

    enum CodingKeys: String, CodingKey {
        case mels, frames
        case audioSeconds = "audio_seconds"
    }
}

extension WhisperPadding {
    /// The window features padded this way fill.
    var window: WhisperWindow { self == .fullWindow ? .full : .short }
}
