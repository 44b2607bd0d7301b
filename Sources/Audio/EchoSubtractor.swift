import ParleyCore

/// Parley's own echo canceller for the microphone heard while the machine speaks: it predicts
/// the echo of what the speaker played (the reference) as a linear filter of it, and subtracts
/// the prediction, and nothing else. A person speaking over the playback (double talk) is
/// passed on whole, where the server's canceller suppresses them with the echo.
///
/// The filter is a partitioned-block frequency-domain adaptive filter (overlap-save): blocks
/// of `blockSize` samples (16 ms at 16 kHz), `partitions` of them, so it models echo paths up
/// to `pathSeconds` long, the reference's misplacement included. Two filters run side by side.
/// The background adapts at every block (normalized per frequency by the reference's energy
/// across the partitions); the foreground, whose prediction is subtracted, takes the
/// background's coefficients once they have predicted better for `promotionBlocks` blocks in
/// a row, and the background is set back to the foreground when it predicts much worse: a
/// person speaking misleads the adaptation, and the foreground never learns from it. The
/// caller says when a person is heard over the echo (`personHeard`): the background then takes
/// the cautious step, so that a person who speaks all through the playback (simultaneous
/// interpretation) does not keep the room from being learned.
/// A foreground whose output comes to hold more than the microphone (smoothed over blocks)
/// has learned something else than the echo, and both filters are forgotten. Both start, once
/// the first playback has gone on for a moment, from the echo's direct sound found in it
/// (`EchoDirectPath`): what a person says over the first seconds of playback is not lost
/// while the rest of the room is learned.
///
/// Not thread-safe: one owner feeds it, block after block, in order.
final class EchoSubtractor {
    /// Samples per block.
    static let blockSize = 256
    /// Blocks of echo path the filter holds.
    static let partitions = 20
    /// The longest echo path (reference misplacement included) the filter models.
    static var pathSeconds: Double { Double(blockSize * partitions) / Double(AudioFormat.recognition.sampleRate) }
    /// Blocks in a row the background must predict better before the foreground takes it.
    static let promotionBlocks = 5
    /// The background's step (normalized least mean squares, 0…2).
    static let step = 1.0
    /// Its step in a block where a person is heard over the echo, or that the learned room does
    /// not explain (a person the echo guard could not tell, as loud as the echo).
    static let cautiousStep = 0.2

    private let transform = BlockTransform()
    private let bins = BlockTransform.bins
    /// The reference's spectra, newest at slot `newest`, a ring of `partitions` slots.
    private let referenceRe: UnsafeMutablePointer<Double>, referenceIm: UnsafeMutablePointer<Double>
    private var newest = 0
    /// Per frequency: the reference's energy across the partitions held.
    private let referenceEnergy: UnsafeMutablePointer<Double>
    private let foregroundRe: UnsafeMutablePointer<Double>, foregroundIm: UnsafeMutablePointer<Double>
    private let backgroundRe: UnsafeMutablePointer<Double>, backgroundIm: UnsafeMutablePointer<Double>
    private let previousReference: UnsafeMutablePointer<Double>
    private let errorRe: UnsafeMutablePointer<Double>, errorIm: UnsafeMutablePointer<Double>
    private let foregroundError: UnsafeMutablePointer<Double>, backgroundError: UnsafeMutablePointer<Double>
    private let filterSize: Int
    private var betterRun = 0
    /// The partition whose coefficients are held to `blockSize` taps at the next block (one
    /// a block, in turn: the gradient constraint spread over the partitions).
    private var constrained = 0
    /// Blocks processed, and how many times the foreground took the background's coefficients.
    private(set) var blocks = 0
    private(set) var promotions = 0
    /// How many times the filters were forgotten, having learned something else than the echo.
    private(set) var forgotten = 0
    /// The microphone's and the foreground's output energy, smoothed over blocks.
    private var heardSmoothed = 0.0, leftSmoothed = 0.0
    /// The first playback, kept for the search of the echo's direct sound; both filters start
    /// from what it finds, at the first block after it is done.
    private var directPath = EchoDirectPath(lags: EchoSubtractor.blockSize * EchoSubtractor.partitions)
    private let search = DirectPathSearch()
    /// Whether `process` searches where the first playback is kept whole, instead of beside
    /// the audio thread (the same blocks start from it each run: the arithmetic's tests).
    private let searchesInPlace: Bool
    /// What the search found, once it is done.
    private(set) var directPathFound: EchoDirectPath.Found?
    /// Whether the first playback is being kept, or searched, for the direct path.
    var awaitsDirectPath: Bool { directPath.started && directPathFound == nil }

    /// Both filters start from the search's result, if it is done (and was not taken before).
    func takeDirectPath() {
        if directPathFound == nil, let found = search.take() { startFrom(found) }
    }

    init(searchesInPlace: Bool = false) {
        self.searchesInPlace = searchesInPlace
        filterSize = Self.partitions * BlockTransform.bins
        func zeros(_ count: Int) -> UnsafeMutablePointer<Double> {
            let pointer = UnsafeMutablePointer<Double>.allocate(capacity: count)
            pointer.initialize(repeating: 0, count: count)
            return pointer
        }
        (referenceRe, referenceIm) = (zeros(filterSize), zeros(filterSize))
        (foregroundRe, foregroundIm) = (zeros(filterSize), zeros(filterSize))
        (backgroundRe, backgroundIm) = (zeros(filterSize), zeros(filterSize))
        referenceEnergy = zeros(BlockTransform.bins)
        (errorRe, errorIm) = (zeros(BlockTransform.bins), zeros(BlockTransform.bins))
        previousReference = zeros(Self.blockSize)
        (foregroundError, backgroundError) = (zeros(Self.blockSize), zeros(Self.blockSize))
    }

    deinit {
        for pointer in [referenceRe, referenceIm, foregroundRe, foregroundIm, backgroundRe, backgroundIm, referenceEnergy,
                        errorRe, errorIm, previousReference, foregroundError, backgroundError] {
            pointer.deallocate()
        }
    }

    /// Forgets the echo path: the next blocks learn it again.
    private func forgetFilters() {
        for pointer in [foregroundRe, foregroundIm, backgroundRe, backgroundIm] {
            pointer.update(repeating: 0, count: filterSize)
        }
        (heardSmoothed, leftSmoothed) = (0, 0)
        betterRun = 0
        forgotten += 1
    }

    /// One block: `microphone` and `reference` (`blockSize` samples each, full scale 1, the
    /// reference placed so that its echo arrives within `pathSeconds` after it) give the
    /// microphone without the predicted echo in `output`.
    func process(microphone: UnsafeBufferPointer<Double>, reference: UnsafeBufferPointer<Double>,
                 output: UnsafeMutableBufferPointer<Double>, personHeard: Bool = false) {
        let block = Self.blockSize
        precondition(microphone.count == block && reference.count == block && output.count == block)
        blocks += 1
        addReference(reference)
        if let collected = directPath.add(microphone: microphone, reference: reference) {
            let lags = directPath.lags
            if searchesInPlace {
                startFrom(EchoDirectPath.search(microphone: collected.microphone, reference: collected.reference, lags: lags))
            } else {
                search.start(collected, lags: lags)
            }
        } else {
            takeDirectPath()
        }
        predict(foregroundRe, foregroundIm, into: foregroundError)
        predict(backgroundRe, backgroundIm, into: backgroundError)
        var heard = 0.0, foregroundLeft = 0.0, backgroundLeft = 0.0
        for index in 0..<block {
            let sample = microphone[index]
            let foreground = sample - foregroundError[index], background = sample - backgroundError[index]
            foregroundError[index] = foreground
            backgroundError[index] = background
            heard += sample * sample
            foregroundLeft += foreground * foreground
            backgroundLeft += background * background
            output[index] = foreground
        }
        // A foreground that adds to what it hears has learned something else than the echo:
        // it is forgotten, and the microphone passes as it is until the filters learn again.
        heardSmoothed = 0.95 * heardSmoothed + heard
        leftSmoothed = 0.95 * leftSmoothed + foregroundLeft
        if blocks > 20 && leftSmoothed > 1.2 * heardSmoothed {
            forgetFilters()
            for index in 0..<block { output[index] = microphone[index] }
            return
        }
        // Once the foreground takes out most of the echo (6 dB, smoothed), a block it leaves
        // mostly in place holds something else: the background learns from it cautiously.
        let learned = leftSmoothed < 0.25 * heardSmoothed
        let unexplained = learned && foregroundLeft > 0.5 * heard
        let doubleTalk = personHeard || unexplained
        adaptBackground(step: doubleTalk ? Self.cautiousStep : Self.step)
        // While a person speaks, a background that fitted their voice to the playback can
        // predict a little of it for a few blocks: it must do much better to be taken.
        if backgroundLeft < (doubleTalk ? 0.5 : 0.8) * foregroundLeft && backgroundLeft < heard {
            betterRun += 1
            if betterRun >= Self.promotionBlocks {
                foregroundRe.update(from: backgroundRe, count: filterSize)
                foregroundIm.update(from: backgroundIm, count: filterSize)
                promotions += 1
                betterRun = 0
            }
        } else {
            betterRun = 0
            if backgroundLeft > 4 * foregroundLeft && backgroundLeft > 1e-9 {
                backgroundRe.update(from: foregroundRe, count: filterSize)
                backgroundIm.update(from: foregroundIm, count: filterSize)
            }
        }
    }

    /// Both filters become the direct path's taps (the echo path in time, `partitions` blocks
    /// of it), each partition's block transformed as the filters hold it, where it found one.
    private func startFrom(_ found: EchoDirectPath.Found) {
        directPathFound = found
        guard let taps = found.taps else { return }
        let block = Self.blockSize, bins = bins
        for partition in 0..<Self.partitions {
            for index in 0..<block {
                transform.time[index] = taps[partition * block + index]
                transform.time[block + index] = 0
            }
            transform.forward()
            for filter in [(foregroundRe, foregroundIm), (backgroundRe, backgroundIm)] {
                (filter.0 + partition * bins).update(from: transform.spectrumRe, count: bins)
                (filter.1 + partition * bins).update(from: transform.spectrumIm, count: bins)
            }
        }
        betterRun = 0
    }

    /// The new reference block joins the spectra: the previous block and this one, transformed.
    private func addReference(_ reference: UnsafeBufferPointer<Double>) {
        let block = Self.blockSize, bins = bins
        let time = transform.time
        for index in 0..<block {
            time[index] = previousReference[index]
            time[block + index] = reference[index]
            previousReference[index] = reference[index]
        }
        transform.forward()
        newest = (newest + 1) % Self.partitions
        let (re, im) = (referenceRe + newest * bins, referenceIm + newest * bins)
        let (newRe, newIm) = (transform.spectrumRe, transform.spectrumIm)
        for bin in 0..<bins {
            let old = re[bin] * re[bin] + im[bin] * im[bin]
            re[bin] = newRe[bin]
            im[bin] = newIm[bin]
            referenceEnergy[bin] = max(0, referenceEnergy[bin] - old + re[bin] * re[bin] + im[bin] * im[bin])
        }
    }

    /// The slot of partition `partition` (0: the newest block) in the ring.
    private func slot(_ partition: Int) -> Int {
        (newest - partition + Self.partitions) % Self.partitions
    }

    /// The echo the filter `(filterRe, filterIm)` predicts for the newest block, in time.
    private func predict(_ filterRe: UnsafeMutablePointer<Double>, _ filterIm: UnsafeMutablePointer<Double>,
                         into prediction: UnsafeMutablePointer<Double>) {
        let bins = bins
        let (re, im) = (transform.spectrumRe, transform.spectrumIm)
        re.update(repeating: 0, count: bins)
        im.update(repeating: 0, count: bins)
        for partition in 0..<Self.partitions {
            let (xr, xi) = (referenceRe + slot(partition) * bins, referenceIm + slot(partition) * bins)
            let (wr, wi) = (filterRe + partition * bins, filterIm + partition * bins)
            for bin in 0..<bins {
                re[bin] += wr[bin] * xr[bin] - wi[bin] * xi[bin]
                im[bin] += wr[bin] * xi[bin] + wi[bin] * xr[bin]
            }
        }
        transform.inverse()
        let block = Self.blockSize, scale = 1 / Double(transform.size)
        for index in 0..<block { prediction[index] = transform.time[block + index] * scale }
    }

    /// One normalized step of the background towards what its error (`backgroundError`) says it
    /// missed; one partition a block is held to `blockSize` taps (the gradient constraint).
    private func adaptBackground(step: Double) {
        let block = Self.blockSize, bins = bins
        let time = transform.time
        for index in 0..<block {
            time[index] = 0
            time[block + index] = backgroundError[index]
        }
        transform.forward()
        let regularization = Double(Self.partitions * transform.size) * 1e-6
        for bin in 0..<bins {
            let gain = step / (referenceEnergy[bin] + regularization)
            errorRe[bin] = transform.spectrumRe[bin] * gain
            errorIm[bin] = transform.spectrumIm[bin] * gain
        }
        for partition in 0..<Self.partitions {
            let (xr, xi) = (referenceRe + slot(partition) * bins, referenceIm + slot(partition) * bins)
            let (wr, wi) = (backgroundRe + partition * bins, backgroundIm + partition * bins)
            // + conj(X) · E, normalized.
            for bin in 0..<bins {
                wr[bin] += xr[bin] * errorRe[bin] + xi[bin] * errorIm[bin]
                wi[bin] += xr[bin] * errorIm[bin] - xi[bin] * errorRe[bin]
            }
        }
        constrain(backgroundRe + constrained * bins, backgroundIm + constrained * bins)
        constrained = (constrained + 1) % Self.partitions
    }

    /// Holds one partition's coefficients to `blockSize` taps: to time, the second half cut, back.
    private func constrain(_ re: UnsafeMutablePointer<Double>, _ im: UnsafeMutablePointer<Double>) {
        let block = Self.blockSize, bins = bins
        transform.spectrumRe.update(from: re, count: bins)
        transform.spectrumIm.update(from: im, count: bins)
        transform.inverse()
        let scale = 1 / Double(transform.size), time = transform.time
        for index in 0..<block { time[index] *= scale }
        for index in block..<(2 * block) { time[index] = 0 }
        transform.forward()
        re.update(from: transform.spectrumRe, count: bins)
        im.update(from: transform.spectrumIm, count: bins)
    }
}
