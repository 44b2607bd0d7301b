/// The command-line style arguments a PocketSphinx decoder is created with.
///
/// Kept as plain data so that tests and the benchmark can hand the very same
/// settings to `pocketsphinx_continuous` and compare transcripts.
struct DecoderConfiguration: Sendable, Equatable {
    /// The model files.
    var model: SpeechModel
    /// Trailing silence, in 10 ms frames, after which the voice activity detector says speech ended.
    var postSpeechFrames: Int
    /// Whether to run the flat-lexicon second pass. Off by default: the pass runs after the
    /// endpoint, so it delays every final result (why it is off: docs/recognition.md).
    var flatLexiconPass: Bool = false

    /// The most HMMs the first pass keeps active per frame (`-maxhmmpf`; see
    /// `PocketSphinxRecognizer.defaultMaximumActiveHMMs`).
    var maximumActiveHMMs: Int = PocketSphinxRecognizer.defaultMaximumActiveHMMs

    /// Frames per second of the front end (`-frate`, PocketSphinx's default).
    static let framesPerSecond = 100

    /// The frames that `milliseconds` of trailing silence span, at least one.
    static func frames(forMilliseconds milliseconds: Int) -> Int {
        max(1, (milliseconds + 5) / (1000 / framesPerSecond))
    }

    /// The settings that differ from PocketSphinx's defaults, as `-name value` pairs.
    /// `-bestpath yes` (the default) is spelled out because confidence depends on it.
    var tuning: [String] {
        Self.tuning(postSpeechFrames: postSpeechFrames, flatLexiconPass: flatLexiconPass,
                    maximumActiveHMMs: maximumActiveHMMs)
    }

    /// `tuning` for these settings, without a model.
    static func tuning(postSpeechFrames: Int, flatLexiconPass: Bool = false,
                       maximumActiveHMMs: Int = PocketSphinxRecognizer.defaultMaximumActiveHMMs) -> [String] {
        ["-fwdflat", flatLexiconPass ? "yes" : "no",
         "-bestpath", "yes",
         "-maxhmmpf", String(maximumActiveHMMs),
         "-vad_postspeech", String(postSpeechFrames)]
    }

    /// Every argument: the model files, then `tuning`.
    var arguments: [String] {
        ["-hmm", model.acousticModel, "-lm", model.languageModel, "-dict", model.dictionary] + tuning
    }
}
