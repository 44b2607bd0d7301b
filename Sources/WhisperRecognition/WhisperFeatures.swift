import Foundation

/// Whisper's input features: the log-mel spectrogram of 16 kHz mono audio, the values of
/// faster-whisper's `FeatureExtractor` within a measured tolerance (so the worker can be sent
/// features, not PCM).
///
/// The audio is the samples divided by 32768, followed by `trailingZeros` zero samples
/// (faster-whisper's `padding`). It gets 200 samples of reflect padding at each end (a
/// mirror that does not repeat the edge sample, as numpy's `pad(mode: "reflect")`), and is
/// cut into 400-sample frames every 160 samples; the last frame is dropped. Each frame is
/// weighted by a periodic Hann window, its power spectrum (201 bins) is summed into `mels`
/// Slaney-style mel bands, and each band becomes `log10(max(power, 1e-10))`, raised to at
/// least the largest value minus 8, plus 4, divided by 4.
///
/// The arithmetic is not numpy's, so the values are not faster-whisper's to the bit: the
/// transform is FFTW's in Double, and the power and the mel sums are kept in Double until
/// each band is rounded to Float for its logarithm. numpy's own results differ between
/// processors in the last bits (its kernels are chosen at run time, OpenBLAS's too), so the
/// contract is a tolerance, measured against faster-whisper's extractor under each of
/// numpy's kernels (WhisperFeaturesTests), and what Whisper reads from the features must
/// not depend on those last bits (the margins of the decisions in docs/recognition.md).
///
/// A signal of `n` samples (trailing zeros included) gives `n / 160` frames, rounded down.
/// Below 160 samples that is no frame, and `logMel` returns no values (faster-whisper fails
/// there: it takes the maximum of an empty array). Reflection needs no minimum length: a
/// signal shorter than the padding is mirrored back and forth, and a single sample is
/// repeated, as numpy does.
struct WhisperFeatures: Sendable {
    /// Samples per second of the input.
    static let sampleRate = 16_000
    /// Samples between the starts of consecutive frames.
    static let hop = 160
    /// Frames per second of audio.
    static let framesPerSecond = sampleRate / hop
    /// Samples per frame, and the length of its Fourier transform.
    static let fftSize = 400
    /// Frequency bins of a frame's power spectrum.
    static let bins = fftSize / 2 + 1

    /// Mel bands per frame: 80 for most Whisper models, 128 for large-v3.
    let mels: Int
    /// The mel filterbank, `mels` rows of `bins` weights in row-major order.
    let filterbank: [Float]
    /// Per band, the bins holding its nonzero weights.
    private let spans: [Range<Int>]
    /// The periodic Hann window of `fftSize` samples.
    private let window: [Float]
    private let transform = PowerSpectrumTransform.whisperFrame

    /// Features with `mels` bands (at least 1).
    init(mels: Int = 80) {
        precondition(mels > 0, "a spectrogram needs at least one mel band")
        self.mels = mels
        let filterbank = Self.melFilterbank(mels: mels)
        self.filterbank = filterbank
        spans = (0..<mels).map { band in
            let row = filterbank[band * Self.bins..<(band + 1) * Self.bins]
            guard let first = row.firstIndex(where: { $0 != 0 }), let last = row.lastIndex(where: { $0 != 0 }) else {
                return 0..<0
            }
            return (first - band * Self.bins)..<(last - band * Self.bins + 1)
        }
        // numpy's hanning(fftSize + 1) without its last value, as faster-whisper takes it.
        window = (0..<Self.fftSize).map { index in
            let n = Double(2 * index - Self.fftSize)
            return Float(0.5 + 0.5 * cos(Double.pi * n / Double(Self.fftSize)))
        }
    }

    /// The power spectrum (`bins` values) of one windowed frame of `fftSize` samples, as
    /// `logMel` computes it for each frame.
    func powerSpectrum(ofWindowedFrame frame: [Float]) -> [Double] {
        precondition(frame.count == Self.fftSize, "a frame has \(Self.fftSize) samples")
        var values = frame.map { Double($0) }
        var power = [Double](repeating: 0, count: Self.bins)
        let scratch = transform.makeScratch()
        values.withUnsafeMutableBufferPointer { values in
            power.withUnsafeMutableBufferPointer { transform.power(of: values.baseAddress!, into: $0.baseAddress!, scratch: scratch) }
        }
        return power
    }

    /// The number of frames `samples` gives, trailing zeros included.
    static func frameCount(samples: Int, trailingZeros: Int = 160) -> Int {
        (samples + max(trailingZeros, 0)) / hop
    }

    /// The log-mel spectrogram of `samples` followed by `trailingZeros` zero samples (none if
    /// negative): `frames` frames, and `mels × frames` values, band by band (the value of band
    /// `m` at frame `t` is at `m * frames + t`). Fewer than 160 samples in all give no frame.
    func logMel(_ samples: [Int16], trailingZeros: Int = 160) -> (frames: Int, values: [Float]) {
        let length = samples.count + max(trailingZeros, 0)
        let frames = Self.frameCount(samples: samples.count, trailingZeros: trailingZeros)
        guard frames > 0 else { return (0, []) }
        let signal = Self.reflectPadded(samples, length: length)
        let size = Self.fftSize
        var values = [Float](repeating: 0, count: mels * frames)
        let frameValues = UnsafeMutablePointer<Double>.allocate(capacity: size)
        let power = UnsafeMutablePointer<Double>.allocate(capacity: Self.bins)
        defer { frameValues.deallocate(); power.deallocate() }
        let scratch = transform.makeScratch()
        signal.withUnsafeBufferPointer { signal in
            for frame in 0..<frames {
                let start = signal.baseAddress! + frame * Self.hop
                // The window is applied in Float, as faster-whisper applies it to float32 frames.
                for n in 0..<size { frameValues[n] = Double(start[n] * window[n]) }
                transform.power(of: frameValues, into: power, scratch: scratch)
                for band in 0..<mels { values[band * frames + frame] = logMelValue(band: band, power: power) }
            }
        }
        let floor = (values.max() ?? 0) - 8
        for index in values.indices { values[index] = (max(values[index], floor) + 4) / 4 }
        return (frames, values)
    }

    /// `log10` of band `band`'s mel energy (at least 1e-10) over one frame's power spectrum.
    private func logMelValue(band: Int, power: UnsafePointer<Double>) -> Float {
        var sum = 0.0
        let row = band * Self.bins
        for bin in spans[band] { sum += Double(filterbank[row + bin]) * power[bin] }
        return log10(max(Float(sum), 1e-10))
    }

    /// Samples / 32768 and zeros up to `length`, with `fftSize / 2` samples of reflect padding at each end.
    private static func reflectPadded(_ samples: [Int16], length: Int) -> [Float] {
        let pad = fftSize / 2
        var signal = [Float](repeating: 0, count: length + 2 * pad)
        signal.withUnsafeMutableBufferPointer { signal in
            samples.withUnsafeBufferPointer { samples in
                for index in samples.indices { signal[pad + index] = Float(samples[index]) / 32768 }
            }
            // numpy's reflection: mirrored at both ends over and over, the period 2(length − 1).
            let period = 2 * (length - 1)
            func reflected(_ index: Int) -> Int {
                guard period > 0 else { return 0 }
                let folded = (index % period + period) % period
                return folded < length ? folded : period - folded
            }
            for index in 0..<pad {
                signal[index] = signal[pad + reflected(index - pad)]
                signal[pad + length + index] = signal[pad + reflected(length + index)]
            }
        }
        return signal
    }

    /// The Slaney-style mel filterbank of faster-whisper's `get_mel_filters` for `mels` bands
    /// over the `bins` frequencies of a 400-point transform at 16 kHz, computed in Double.
    static func melFilterbank(mels: Int) -> [Float] {
        let binSpacing = 1 / (Double(fftSize) * (1 / Double(sampleRate)))
        let binFrequencies = (0..<bins).map { Double($0) * binSpacing }
        // mels + 2 band edges spaced evenly in mels from 0 to 45.245640471924965 (8 kHz):
        // linear (200/3 Hz a mel) below 1 kHz, logarithmic (a factor 6.4 every 27 mels) above.
        let topMel = 45.245640471924965
        let melStep = topMel / Double(mels + 1)
        let linearHz = 200.0 / 3, logStartHz = 1000.0
        let logStartMel = logStartHz / linearHz, logStep = log(6.4) / 27
        let edges = (0..<mels + 2).map { index -> Double in
            let mel = index == mels + 1 ? topMel : Double(index) * melStep
            return mel >= logStartMel ? logStartHz * exp(logStep * (mel - logStartMel)) : linearHz * mel
        }
        var weights = [Float](repeating: 0, count: mels * bins)
        for band in 0..<mels {
            let (low, centre, high) = (edges[band], edges[band + 1], edges[band + 2])
            let norm = 2 / (high - low)
            for bin in 0..<bins {
                let rising = -(low - binFrequencies[bin]) / (centre - low)
                let falling = (high - binFrequencies[bin]) / (high - centre)
                weights[band * bins + bin] = Float(max(0, min(rising, falling)) * norm)
            }
        }
        return weights
    }
}
