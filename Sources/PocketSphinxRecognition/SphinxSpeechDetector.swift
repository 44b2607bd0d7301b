import CPocketSphinx
import Foundation
import ParleyCore
package import Recognition

/// Voice activity detection with sphinxbase's front end (`fe_t`), the detector
/// PocketSphinx itself uses, without a decoder or a model: it works on the
/// signal's energy against a tracked noise floor, so it serves any language.
///
/// Not thread-safe, like the C object: one request owns one detector.
/// Samples are fed in 10 ms frames; `inSpeech` is the verdict after the last
/// frame, with the front end's own onset (`-vad_startspeech`) and hangover
/// (`-vad_postspeech`) applied.
///
/// Whisper is the engine that uses it, through `SpeechDetector` (PocketSphinx's
/// decoder runs its own `fe_t`); it lives here because sphinxbase, which the C
/// object comes from, is part of PocketSphinx. The executable hands `make` to
/// the Whisper recognizer.
package final class SphinxSpeechDetector: SpeechDetector {
    private let handle: OpaquePointer
    private var cepstra: [Float]
    /// Frames of cepstra the buffer holds: enough for the pre-speech frames released at onset.
    private static let capacity = 128
    private static let coefficients = 13

    /// The verdict after the last frame fed.
    package private(set) var inSpeech = false

    /// A detector whose hangover is `hangoverFrames` 10 ms frames: the `SpeechDetectorFactory`
    /// a Whisper recognizer is given.
    package static func make(hangoverFrames: Int) throws -> any SpeechDetector {
        try SphinxSpeechDetector(postSpeechFrames: hangoverFrames)
    }

    /// A detector whose hangover is `postSpeechFrames` 10 ms frames (`fe_init_auto_r`).
    package init(postSpeechFrames: Int) throws {
        SphinxLog.silence()
        let arguments = ["parley", "-samprate", "16000", "-remove_silence", "yes",
                         "-vad_postspeech", String(postSpeechFrames), "-input_endian", "little"]
        let argv = arguments.map { strdup($0) }
        defer { argv.forEach { free($0) } }
        var mutableArgv = argv
        guard let config = cmd_ln_parse_r(nil, fe_get_args(), Int32(argv.count), &mutableArgv, 0),
              let handle = fe_init_auto_r(config) else {
            throw RecognitionError.modelUnusable(path: "sphinxbase front end", reason: "the voice activity detector did not start")
        }
        // The front end owns `config` from here on.
        self.handle = handle
        cepstra = [Float](repeating: 0, count: Self.capacity * Self.coefficients)
        fe_start_stream(handle)
        fe_start_utt(handle)
    }

    deinit {
        fe_free(handle)
    }

    /// Feeds 16 kHz mono samples (`fe_process_frames`); updates `inSpeech` (`fe_get_vad_state`).
    package func process(_ samples: ArraySlice<Int16>) {
        cepstra.withUnsafeMutableBufferPointer { buffer in
            var rows = (0..<Self.capacity).map { Optional(buffer.baseAddress! + $0 * Self.coefficients) }
            samples.withUnsafeBufferPointer { input in
                var pointer = input.baseAddress
                var remaining = input.count
                while remaining > 0 {
                    var frames = Int32(Self.capacity)
                    let before = remaining
                    rows.withUnsafeMutableBufferPointer { rowPointers in
                        _ = fe_process_frames(handle, &pointer, &remaining, rowPointers.baseAddress, &frames, nil)
                    }
                    if remaining == before { break }
                }
            }
        }
        inSpeech = fe_get_vad_state(handle) != 0
    }
}
