import ParleyCore
import Recognition
import Synchronization

/// What the detector and the audio carry from one utterance to the next in
/// one audio stream: the noise estimate, the samples that followed the last
/// endpoint, and the moments before speech started.
///
/// Unchecked: it wraps a detector (`SpeechDetector`, sphinxbase's `fe_t` in
/// Parley) that is handed from one request to the next; one request holds it at
/// a time (taken from the recognizer's mutex, returned when the request ends).
final class WhisperAudioStream: @unchecked Sendable {  // one request holds it at a time
    /// Samples fed to the detector per step: one 10 ms frame.
    static let stepSamples = 160
    /// Samples kept from before the detected onset (the detector is ~0.1 s late).
    static let prerollSamples = 8_000

    let detector: any SpeechDetector
    let hangoverFrames: Int
    /// The microphone it listens to (`RecognitionOptions.channel`, "" for the one of a dialogue).
    let channel: String
    var leftover: [Int16] = []
    private var preroll: [Int16] = []

    /// A stream whose detector `makeDetector` makes with a hangover of `hangoverFrames`.
    init(hangoverFrames: Int, channel: String = "", makeDetector: SpeechDetectorFactory) throws {
        self.hangoverFrames = hangoverFrames
        self.channel = channel
        detector = try makeDetector(hangoverFrames)
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

extension WhisperRecognizer {
    /// The stream kept for `channel` when it continues the last request's audio and its
    /// detector has the hangover `endpoint` asks for; else a new one, with a new detector.
    func takeStream(fresh: Bool, endpoint: Int, channel: String = "") throws -> WhisperAudioStream {
        let hangover = tuning.hangoverMilliseconds(endpoint: endpoint) / 10
        if !fresh, let kept = streams.withLock({ $0.removeValue(forKey: channel) }), kept.hangoverFrames == hangover {
            return kept
        }
        return try WhisperAudioStream(hangoverFrames: hangover, channel: channel, makeDetector: makeDetector)
    }

    /// Keeps `stream` for the next request on its channel.
    func returnStream(_ stream: WhisperAudioStream) {
        streams.withLock { $0[stream.channel] = stream }
    }
}

/// The words of a yes/no answer, for recognizers that take a vocabulary
/// rather than a grammar (the grammar is `SearchSelection.confirmationGrammar`).
enum ConfirmationVocabulary {
    static let words = ["yes", "yeah", "sure", "correct", "right", "okay", "no", "nope", "wrong", "incorrect"]
}
