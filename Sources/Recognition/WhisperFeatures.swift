import Foundation

/// Whisper's input features: the log-mel spectrogram of 16 kHz mono audio, with the same
/// numbers as faster-whisper's `FeatureExtractor` (so the worker can be sent features, not PCM).
///
/// The audio is the samples divided by 32768, followed by `trailingZeros` zero samples
/// (faster-whisper's `padding`). It gets 200 samples of reflect padding at each end (a
/// mirror that does not repeat the edge sample, as numpy's `pad(mode: "reflect")`), and is
/// cut into 400-sample frames every 160 samples; the last frame is dropped. Each frame is
/// weighted by a periodic Hann window, its power spectrum (201 bins) is summed into `mels`
/// Slaney-style mel bands, and each band becomes `log10(max(power, 1e-10))`, raised to at
/// least the largest value minus 8, plus 4, divided by 4.
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
    private let transform = ComplexFFT(size: Self.fftSize / 2)
    /// `e^(-2πik/fftSize)` for `k` in `0...fftSize/2`, joining the half-size transform's halves.
    private let rotationRe: [Double], rotationIm: [Double]

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
        window = (0..<Self.fftSize).map { Float(0.5 - 0.5 * cos(2 * Double.pi * Double($0) / Double(Self.fftSize))) }
        let angles = (0...Self.fftSize / 2).map { 2 * Double.pi * Double($0) / Double(Self.fftSize) }
        rotationRe = angles.map { cos($0) }
        rotationIm = angles.map { -sin($0) }
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
        let half = Self.fftSize / 2
        let values = [Float](unsafeUninitializedCapacity: mels * frames) { output, count in
            let work = UnsafeMutablePointer<Double>.allocate(capacity: 4 * half + Self.bins)
            defer { work.deallocate() }
            let (re, im, scratchRe, scratchIm) = (work, work + half, work + 2 * half, work + 3 * half)
            let power = work + 4 * half
            var largest = -Float.infinity
            signal.withUnsafeBufferPointer { signal in
                window.withUnsafeBufferPointer { window in
                    filterbank.withUnsafeBufferPointer { weights in
                        for frame in 0..<frames {
                            let start = signal.baseAddress! + frame * Self.hop
                            for n in 0..<half {
                                re[n] = Double(start[2 * n] * window[2 * n])
                                im[n] = Double(start[2 * n + 1] * window[2 * n + 1])
                            }
                            transform.forward(re, im, scratchRe: scratchRe, scratchIm: scratchIm)
                            realPower(re, im, into: power)
                            for band in 0..<mels {
                                let row = weights.baseAddress! + band * Self.bins
                                var sum = 0.0
                                for bin in spans[band] { sum += Double(row[bin]) * power[bin] }
                                let value = log10(max(Float(sum), 1e-10))
                                largest = max(largest, value)
                                output[band * frames + frame] = value
                            }
                        }
                    }
                }
            }
            let floor = largest - 8
            for index in 0..<mels * frames { output[index] = (max(output[index], floor) + 4) / 4 }
            count = mels * frames
        }
        return (frames, values)
    }

    /// The power spectrum of a real frame whose even samples were transformed in `re` and odd
    /// ones in `im`: bins `0...fftSize/2` of the full-size transform, squared magnitudes.
    private func realPower(_ re: UnsafePointer<Double>, _ im: UnsafePointer<Double>,
                           into power: UnsafeMutablePointer<Double>) {
        let half = Self.fftSize / 2
        rotationRe.withUnsafeBufferPointer { rotationRe in
            rotationIm.withUnsafeBufferPointer { rotationIm in
                for bin in 0...half {
                    let k = bin == half ? 0 : bin, mirror = bin == 0 ? 0 : half - bin
                    let (a, b, c, d) = (re[k], im[k], re[mirror], im[mirror])
                    // Transform of the even samples (e) and of the odd ones (o).
                    let eRe = 0.5 * (a + c), eIm = 0.5 * (b - d)
                    let oRe = 0.5 * (b + d), oIm = 0.5 * (c - a)
                    let (wRe, wIm) = (rotationRe[bin], rotationIm[bin])
                    let xRe = eRe + wRe * oRe - wIm * oIm
                    let xIm = eIm + wRe * oIm + wIm * oRe
                    power[bin] = xRe * xRe + xIm * xIm
                }
            }
        }
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

extension WhisperFeatures {
    /// A forward complex discrete Fourier transform (`X[k] = Σ x[n]·e^(-2πikn/size)`) of a
    /// fixed size, in split real and imaginary arrays: a mixed-radix Stockham transform with
    /// radix-4, radix-2 and radix-5 passes and a plain pass for any other prime factor.
    struct ComplexFFT: Sendable {
        let size: Int
        private let passes: [Pass]

        /// One pass: `radix`-point transforms over `count` groups of `stride` interleaved
        /// sequences, each output but the first rotated by its twiddle factor.
        private struct Pass: Sendable {
            let radix: Int, count: Int, stride: Int
            /// `e^(-2πi·j·r/(radix·count))` for group `j` and output `r ≥ 1`, at `j·(radix − 1) + r − 1`.
            let twiddleRe: [Double], twiddleIm: [Double]
            /// `e^(-2πi·q/radix)` for `q` in `0..<radix`.
            let rootRe: [Double], rootIm: [Double]
        }

        /// A transform of `size` points (at least 1).
        init(size: Int) {
            precondition(size > 0, "a transform needs at least one point")
            self.size = size
            var radices: [Int] = []
            var rest = size
            while rest % 4 == 0 { radices.append(4); rest /= 4 }
            for prime in [2, 5, 3] {
                while rest % prime == 0 { radices.append(prime); rest /= prime }
            }
            var prime = 7
            while rest > 1 {
                while rest % prime == 0 { radices.append(prime); rest /= prime }
                prime += 2
            }
            var passes: [Pass] = []
            var length = size, stride = 1
            for radix in radices {
                let count = length / radix
                var twiddleRe: [Double] = [], twiddleIm: [Double] = []
                for group in 0..<count {
                    for output in 1..<radix {
                        let angle = -2 * Double.pi * Double(group * output) / Double(length)
                        twiddleRe.append(cos(angle))
                        twiddleIm.append(sin(angle))
                    }
                }
                let roots = (0..<radix).map { -2 * Double.pi * Double($0) / Double(radix) }
                passes.append(Pass(radix: radix, count: count, stride: stride, twiddleRe: twiddleRe,
                                   twiddleIm: twiddleIm, rootRe: roots.map { cos($0) }, rootIm: roots.map { sin($0) }))
                length = count
                stride *= radix
            }
            self.passes = passes
        }

        /// Transforms `size` values in `re` and `im` in place; `scratchRe` and `scratchIm`
        /// (`size` values each) are overwritten.
        func forward(_ re: UnsafeMutablePointer<Double>, _ im: UnsafeMutablePointer<Double>,
                     scratchRe: UnsafeMutablePointer<Double>, scratchIm: UnsafeMutablePointer<Double>) {
            var (xr, xi, yr, yi) = (re, im, scratchRe, scratchIm)
            for pass in passes {
                pass.twiddleRe.withUnsafeBufferPointer { twiddleRe in
                    pass.twiddleIm.withUnsafeBufferPointer { twiddleIm in
                        let twiddles = (twiddleRe.baseAddress!, twiddleIm.baseAddress!)
                        switch pass.radix {
                        case 2: Self.radix2(pass, xr, xi, yr, yi, twiddles)
                        case 4: Self.radix4(pass, xr, xi, yr, yi, twiddles)
                        case 5: Self.radix5(pass, xr, xi, yr, yi, twiddles)
                        default: Self.anyRadix(pass, xr, xi, yr, yi, twiddles)
                        }
                    }
                }
                (xr, xi, yr, yi) = (yr, yi, xr, xi)
            }
            if xr != re {
                re.update(from: xr, count: size)
                im.update(from: xi, count: size)
            }
        }

        private typealias Twiddles = (re: UnsafePointer<Double>, im: UnsafePointer<Double>)

        private static func radix2(_ pass: Pass, _ xr: UnsafeMutablePointer<Double>, _ xi: UnsafeMutablePointer<Double>,
                                   _ yr: UnsafeMutablePointer<Double>, _ yi: UnsafeMutablePointer<Double>,
                                   _ twiddles: Twiddles) {
            let (s, m) = (pass.stride, pass.count)
            for j in 0..<m {
                let (wr, wi) = (twiddles.re[j], twiddles.im[j])
                for q in 0..<s {
                    let i0 = q + s * j, i1 = i0 + s * m
                    let (ar, ai, br, bi) = (xr[i0], xi[i0], xr[i1], xi[i1])
                    let o = q + 2 * s * j
                    yr[o] = ar + br
                    yi[o] = ai + bi
                    let (dr, di) = (ar - br, ai - bi)
                    yr[o + s] = dr * wr - di * wi
                    yi[o + s] = dr * wi + di * wr
                }
            }
        }

        private static func radix4(_ pass: Pass, _ xr: UnsafeMutablePointer<Double>, _ xi: UnsafeMutablePointer<Double>,
                                   _ yr: UnsafeMutablePointer<Double>, _ yi: UnsafeMutablePointer<Double>,
                                   _ twiddles: Twiddles) {
            let (s, m) = (pass.stride, pass.count)
            let gap = s * m
            for j in 0..<m {
                let w = 3 * j
                let (w1r, w1i) = (twiddles.re[w], twiddles.im[w])
                let (w2r, w2i) = (twiddles.re[w + 1], twiddles.im[w + 1])
                let (w3r, w3i) = (twiddles.re[w + 2], twiddles.im[w + 2])
                for q in 0..<s {
                    let i0 = q + s * j
                    let (a0r, a0i) = (xr[i0], xi[i0])
                    let (a1r, a1i) = (xr[i0 + gap], xi[i0 + gap])
                    let (a2r, a2i) = (xr[i0 + 2 * gap], xi[i0 + 2 * gap])
                    let (a3r, a3i) = (xr[i0 + 3 * gap], xi[i0 + 3 * gap])
                    let (t0r, t0i) = (a0r + a2r, a0i + a2i)
                    let (t1r, t1i) = (a0r - a2r, a0i - a2i)
                    let (t2r, t2i) = (a1r + a3r, a1i + a3i)
                    let (t3r, t3i) = (a1r - a3r, a1i - a3i)
                    // y0 = t0 + t2, y1 = t1 − i·t3, y2 = t0 − t2, y3 = t1 + i·t3
                    let (y1r, y1i) = (t1r + t3i, t1i - t3r)
                    let (y2r, y2i) = (t0r - t2r, t0i - t2i)
                    let (y3r, y3i) = (t1r - t3i, t1i + t3r)
                    let o = q + 4 * s * j
                    yr[o] = t0r + t2r
                    yi[o] = t0i + t2i
                    yr[o + s] = y1r * w1r - y1i * w1i
                    yi[o + s] = y1r * w1i + y1i * w1r
                    yr[o + 2 * s] = y2r * w2r - y2i * w2i
                    yi[o + 2 * s] = y2r * w2i + y2i * w2r
                    yr[o + 3 * s] = y3r * w3r - y3i * w3i
                    yi[o + 3 * s] = y3r * w3i + y3i * w3r
                }
            }
        }

        private static func radix5(_ pass: Pass, _ xr: UnsafeMutablePointer<Double>, _ xi: UnsafeMutablePointer<Double>,
                                   _ yr: UnsafeMutablePointer<Double>, _ yi: UnsafeMutablePointer<Double>,
                                   _ twiddles: Twiddles) {
            let (s, m) = (pass.stride, pass.count)
            let gap = s * m
            // cos and −sin of 2π/5 and 4π/5: the roots e^(-2πi/5) and e^(-4πi/5).
            let (c1, c2) = (pass.rootRe[1], pass.rootRe[2])
            let (s1, s2) = (-pass.rootIm[1], -pass.rootIm[2])
            for j in 0..<m {
                let w = 4 * j
                for q in 0..<s {
                    let i0 = q + s * j
                    let (a0r, a0i) = (xr[i0], xi[i0])
                    let (a1r, a1i) = (xr[i0 + gap], xi[i0 + gap])
                    let (a2r, a2i) = (xr[i0 + 2 * gap], xi[i0 + 2 * gap])
                    let (a3r, a3i) = (xr[i0 + 3 * gap], xi[i0 + 3 * gap])
                    let (a4r, a4i) = (xr[i0 + 4 * gap], xi[i0 + 4 * gap])
                    let (sum14r, sum14i) = (a1r + a4r, a1i + a4i)
                    let (sum23r, sum23i) = (a2r + a3r, a2i + a3i)
                    let (dif14r, dif14i) = (a1r - a4r, a1i - a4i)
                    let (dif23r, dif23i) = (a2r - a3r, a2i - a3i)
                    // y1 = b1 − i·d1, y4 = b1 + i·d1, y2 = b2 − i·d2, y3 = b2 + i·d2
                    let (b1r, b1i) = (a0r + c1 * sum14r + c2 * sum23r, a0i + c1 * sum14i + c2 * sum23i)
                    let (b2r, b2i) = (a0r + c2 * sum14r + c1 * sum23r, a0i + c2 * sum14i + c1 * sum23i)
                    let (d1r, d1i) = (s1 * dif14r + s2 * dif23r, s1 * dif14i + s2 * dif23i)
                    let (d2r, d2i) = (s2 * dif14r - s1 * dif23r, s2 * dif14i - s1 * dif23i)
                    let outputs = ((b1r + d1i, b1i - d1r), (b2r + d2i, b2i - d2r),
                                   (b2r - d2i, b2i + d2r), (b1r - d1i, b1i + d1r))
                    let o = q + 5 * s * j
                    yr[o] = a0r + sum14r + sum23r
                    yi[o] = a0i + sum14i + sum23i
                    func store(_ r: Int, _ value: (Double, Double)) {
                        let (wr, wi) = (twiddles.re[w + r - 1], twiddles.im[w + r - 1])
                        yr[o + r * s] = value.0 * wr - value.1 * wi
                        yi[o + r * s] = value.0 * wi + value.1 * wr
                    }
                    store(1, outputs.0)
                    store(2, outputs.1)
                    store(3, outputs.2)
                    store(4, outputs.3)
                }
            }
        }

        private static func anyRadix(_ pass: Pass, _ xr: UnsafeMutablePointer<Double>, _ xi: UnsafeMutablePointer<Double>,
                                     _ yr: UnsafeMutablePointer<Double>, _ yi: UnsafeMutablePointer<Double>,
                                     _ twiddles: Twiddles) {
            let (p, s, m) = (pass.radix, pass.stride, pass.count)
            for j in 0..<m {
                for q in 0..<s {
                    let i0 = q + s * j, o = q + p * s * j
                    for r in 0..<p {
                        var (sumRe, sumIm) = (0.0, 0.0)
                        for k in 0..<p {
                            let (ar, ai) = (xr[i0 + k * s * m], xi[i0 + k * s * m])
                            let root = r * k % p
                            let (cr, ci) = (pass.rootRe[root], pass.rootIm[root])
                            sumRe += ar * cr - ai * ci
                            sumIm += ar * ci + ai * cr
                        }
                        if r == 0 {
                            (yr[o], yi[o]) = (sumRe, sumIm)
                        } else {
                            let (wr, wi) = (twiddles.re[(p - 1) * j + r - 1], twiddles.im[(p - 1) * j + r - 1])
                            yr[o + r * s] = sumRe * wr - sumIm * wi
                            yi[o + r * s] = sumRe * wi + sumIm * wr
                        }
                    }
                }
            }
        }
    }
}
