/// How an utterance is padded before Whisper's encoder hears it. The encoder
/// takes any window up to 30 s; without a few seconds after the speech the
/// decoder repeats the sentence to the length limit (1 s let it loop, 3 s kept
/// stock accuracy).
enum WhisperPadding: Sendable, Equatable {
    /// Silence appended to the audio before its features are computed (partial decodes).
    case silence(seconds: Double)
    /// Zero frames after the utterance's features, as stock `transcribe` pads its window.
    case zeroFrames(seconds: Double)
    /// The full 30 s window stock `transcribe` encodes, padded with zero frames.
    case fullWindow

    /// The most frames the encoder takes: 30 s.
    static let maximumFrames = 3_000

    /// The features the encoder gets for `audio` padded this way: `mels` rows of `frames`
    /// values, at most `maximumFrames` (a longer utterance is cut, as stock cuts its window).
    func features(of audio: [Int16], with extractor: WhisperFeatures) -> (frames: Int, values: [Float]) {
        switch self {
        case let .silence(seconds):
            let spectrogram = extractor.logMel(audio, trailingZeros: Int(seconds * Double(WhisperFeatures.sampleRate)))
            return Self.fitted(spectrogram, frames: min(spectrogram.frames, Self.maximumFrames), mels: extractor.mels)
        case let .zeroFrames(seconds):
            let spectrogram = extractor.logMel(audio)
            let frames = min(Self.maximumFrames, spectrogram.frames + Int(seconds * Double(WhisperFeatures.framesPerSecond)))
            return Self.fitted(spectrogram, frames: frames, mels: extractor.mels)
        case .fullWindow:
            return Self.fitted(extractor.logMel(audio), frames: Self.maximumFrames, mels: extractor.mels)
        }
    }

    /// `spectrogram` cut or padded with zeros to `frames` frames, row by row.
    static func fitted(_ spectrogram: (frames: Int, values: [Float]), frames: Int, mels: Int) -> (frames: Int, values: [Float]) {
        guard spectrogram.frames != frames else { return spectrogram }
        var values = [Float](repeating: 0, count: mels * frames)
        let kept = min(frames, spectrogram.frames)
        for mel in 0..<mels where kept > 0 {
            let source = mel * spectrogram.frames
            values.replaceSubrange(mel * frames..<(mel * frames + kept), with: spectrogram.values[source..<(source + kept)])
        }
        return (frames, values)
    }
}
