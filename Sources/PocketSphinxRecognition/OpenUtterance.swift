import ParleyCore
import Recognition

/// The utterance a request has open on a locale decoder, and how far it has got.
struct OpenUtterance {
    /// The request the utterance belongs to.
    let owner: ObjectIdentifier
    /// What the request asked for.
    let options: RecognitionOptions
    /// Where speech started and ended, and the limits.
    var tracker: UtteranceTracker
    /// The last partial result reported, so that only changes are.
    var lastPartial = ""

    /// A fresh utterance for `owner`, tracked at the recognition sample rate.
    init(owner: ObjectIdentifier, options: RecognitionOptions) {
        self.owner = owner
        self.options = options
        tracker = UtteranceTracker(sampleRate: AudioFormat.recognition.sampleRate,
                                   startTimeout: options.startTimeout, maximumDuration: options.maximumDuration)
    }
}
