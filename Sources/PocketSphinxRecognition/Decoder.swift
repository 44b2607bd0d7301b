import CPocketSphinx
import Foundation
import ParleyCore
import Recognition

/// One PocketSphinx decoder (`ps_decoder_t`) and the only place its C
/// functions are called.
///
/// Not thread-safe, like the C object: a `Decoder` is created, used and freed
/// inside one `LocaleDecoder` actor, on its thread. Frame numbers are 10 ms
/// frames since the stream started (`ps_start_stream`).
final class Decoder {
    private let handle: OpaquePointer
    /// The settings it was created with.
    let configuration: DecoderConfiguration

    /// The name PocketSphinx gives the search made from `-lm` (the n-gram model).
    static let dictationSearch = "_default"

    private init(handle: OpaquePointer, configuration: DecoderConfiguration) {
        self.handle = handle
        self.configuration = configuration
    }

    deinit { ps_free(handle) }

    /// Loads the model (`cmd_ln_parse_r`, `ps_init`); throws `modelUnusable` naming the file at fault.
    static func load(_ configuration: DecoderConfiguration) throws -> Decoder {
        if let missing = configuration.model.missingFile {
            throw RecognitionError.modelUnusable(path: missing, reason: "the file does not exist")
        }
        let (handle, errors) = SphinxLog.capturing { initialize(configuration.arguments) }
        guard let handle else {
            throw ModelFailure.diagnose(configuration.model, logErrors: errors)
        }
        return Decoder(handle: handle, configuration: configuration)
    }

    /// `cmd_ln_parse_r` then `ps_init`; nil when either fails.
    private static func initialize(_ arguments: [String]) -> OpaquePointer? {
        let argv = (["parley"] + arguments).map { strdup($0) }
        defer { argv.forEach { free($0) } }
        var mutableArgv = argv
        guard let config = cmd_ln_parse_r(nil, ps_args(), Int32(argv.count), &mutableArgv, 1) else { return nil }
        defer { cmd_ln_free_r(config) }
        return ps_init(config)
    }

    // MARK: Streaming

    /// `ps_start_stream`: the audio stream (re)starts; resets the noise estimate.
    func startStream() {
        ps_start_stream(handle)
    }

    /// `ps_start_utt`.
    func startUtterance() throws {
        guard ps_start_utt(handle) >= 0 else { throw DecoderFailure(call: "ps_start_utt") }
    }

    /// `ps_process_raw` on 16 kHz mono samples.
    func process(_ samples: ArraySlice<Int16>) throws {
        let status = samples.withUnsafeBufferPointer { buffer in
            ps_process_raw(handle, buffer.baseAddress, buffer.count, 0, 0)
        }
        guard status >= 0 else { throw DecoderFailure(call: "ps_process_raw") }
    }

    /// `ps_get_in_speech`: whether the voice activity detector hears speech.
    var inSpeech: Bool { ps_get_in_speech(handle) != 0 }

    /// `ps_end_utt`: runs the final passes.
    func endUtterance() {
        ps_end_utt(handle)
    }

    // MARK: Results

    /// `ps_get_hyp`: the best hypothesis so far, "" when there is none.
    var hypothesis: String {
        var score: Int32 = 0
        return ps_get_hyp(handle, &score).map { String(cString: $0) } ?? ""
    }

    /// `ps_get_prob` as a probability 0…1 (meaningful for the n-gram search only).
    var posterior: Double {
        probability(ps_get_prob(handle))
    }

    /// `ps_seg_iter`: the segments of the best path, fillers included.
    var segments: [Segment] {
        var result: [Segment] = []
        var iterator = ps_seg_iter(handle)
        while let segment = iterator {
            var start: Int32 = 0, end: Int32 = 0
            ps_seg_frames(segment, &start, &end)
            let word = ps_seg_word(segment).map { String(cString: $0) } ?? ""
            let posterior = probability(ps_seg_prob(segment, nil, nil, nil))
            result.append(Segment(word: word, startFrame: Int(start), endFrame: Int(end), posterior: posterior))
            iterator = ps_seg_next(segment)
        }
        return result
    }

    /// `ps_nbest`: up to `limit` hypotheses, best first, as the decoder spells them.
    func bestHypotheses(limit: Int) -> [String] {
        guard limit > 0, var iterator = ps_nbest(handle) else { return [] }
        var result: [String] = []
        while true {
            var score: Int32 = 0
            if let text = ps_nbest_hyp(iterator, &score) { result.append(String(cString: text)) }
            guard result.count < limit else {
                ps_nbest_free(iterator)  // stopped early: the iterator does not free itself
                break
            }
            guard let next = ps_nbest_next(iterator) else { break }
            iterator = next
        }
        return result
    }

    private func probability(_ logValue: Int32) -> Double {
        min(1, max(0, logmath_exp(ps_get_logmath(handle), logValue)))
    }

    // MARK: Searches

    /// `ps_get_search`: the active search's name.
    var activeSearch: String {
        ps_get_search(handle).map { String(cString: $0) } ?? Self.dictationSearch
    }

    /// `ps_set_jsgf_string`: defines search `name` from a JSGF grammar.
    /// `name` must not be the active search (redefining it crashes the next utterance).
    func defineGrammar(_ grammar: String, named name: String) -> Bool {
        precondition(name != activeSearch, "redefining the active search crashes PocketSphinx")
        return ps_set_jsgf_string(handle, name, grammar) >= 0
    }

    /// `ps_unset_search`: forgets a search that is not active.
    func removeSearch(named name: String) {
        precondition(name != activeSearch, "the active search cannot be removed")
        ps_unset_search(handle, name)
    }

    /// `ps_set_search`, between utterances only.
    func activateSearch(named name: String) throws {
        guard ps_set_search(handle, name) >= 0 else { throw DecoderFailure(call: "ps_set_search(\(name))") }
    }
}

/// One segment of the best path: a word or a filler, with frames since the stream started.
struct Segment: Sendable, Equatable {
    var word: String
    var startFrame: Int
    var endFrame: Int
    var posterior: Double
}

/// A PocketSphinx call that failed where it should not; a bug, or memory exhausted.
struct DecoderFailure: Error, CustomStringConvertible {
    var call: String
    var description: String { "the speech decoder failed in \(call); try again, and report it if it persists" }
}
