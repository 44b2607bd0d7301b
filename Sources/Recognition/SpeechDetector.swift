/// A voice activity detector: fed a stream of 16 kHz mono samples, it says whether a person
/// speaks, with its own onset and hangover applied. It works on the signal alone, so it
/// serves any language.
///
/// A recognizer that has no endpointing of its own (Whisper) is handed a way to make one
/// (`SpeechDetectorFactory`); the one Parley uses is sphinxbase's front end
/// (`SphinxSpeechDetector`, in PocketSphinxRecognition), chosen where the engines are wired
/// together, so this module links no engine.
///
/// Stateful and not thread-safe: one request feeds one detector at a time.
public protocol SpeechDetector: AnyObject {
    /// The verdict after the last samples fed.
    var inSpeech: Bool { get }

    /// Feeds 16 kHz mono samples, in 10 ms frames (160 samples) or more; updates `inSpeech`.
    func process(_ samples: ArraySlice<Int16>)
}

/// Makes a detector whose hangover is `hangoverFrames` 10 ms frames: how long `inSpeech` stays
/// true into silence. Throws when the detector cannot start.
public typealias SpeechDetectorFactory = @Sendable (_ hangoverFrames: Int) throws -> any SpeechDetector
