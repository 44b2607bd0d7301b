import ParleyCore
import Recognition

/// What the detector and the audio carry from one utterance to the next in
/// one audio stream: the noise estimate, the samples that followed the last
/// endpoint, and the moments before speech started.
///
/// Unchecked: it wraps a C handle (`fe_t`) that is handed from one request to
/// the next; one request holds it at a time (taken from the recognizer's
/// mutex, returned when the request ends).
final class WhisperAudioStream: @unchecked Sendable {  // one request holds it at a time
    /// Samples fed to the detector per step: one 10 ms frame.
    static let stepSamples = 160
    /// Samples kept from before the detected onset (the detector is ~0.1 s late).
    static let prerollSamples = 8_000

    let detector: SpeechActivityDetector
    let hangoverFrames: Int
    /// The microphone it listens to (`RecognitionOptions.channel`, "" for the one of a dialogue).
    let channel: String
    var leftover: [Int16] = []
    private var preroll: [Int16] = []

    init(hangoverFrames: Int, channel: String = "") throws {
        self.hangoverFrames = hangoverFrames
        self.channel = channel
        detector = try SpeechActivityDetector(postSpeechFrames: hangoverFrames)
    }

    /// Remembers audio heard before speech started, keeping the last `prerollSamples`.
    func remember(_ samples: ArraySlice<Int16>) {
        preroll += samples
        if preroll.count > 2 * Self.prerollSamples { preroll.removeFirst(preroll.count - Self.prerollSamples) }
    }

    /// The remembered audio before speech, emptied.
    func takePreroll() -> [Int16] {
        defer { preroll = [] }
        return Array(preroll.suffix(Self.prerollSamples))
    }
}

/// The words of a yes/no answer, for recognizers that take a vocabulary
/// rather than a grammar (the grammar is `SearchSelection.confirmationGrammar`).
enum ConfirmationVocabulary {
    static let words = ["yes", "yeah", "sure", "correct", "right", "okay", "no", "nope", "wrong", "incorrect"]
}
