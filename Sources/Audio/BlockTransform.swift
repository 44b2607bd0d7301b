internal import CFFTW
import ParleyCore

/// The real Fourier transform pair of two blocks (`EchoSubtractor.blockSize` × 2 samples),
/// with buffers of its own: one per subtractor.
final class BlockTransform {
    let size = 2 * EchoSubtractor.blockSize
    /// Frequencies of the spectrum.
    static let bins = EchoSubtractor.blockSize + 1
    var bins: Int { Self.bins }
    /// The time buffer (`size` samples): the forward transform's input, the inverse's output.
    let time: UnsafeMutablePointer<Double>
    /// The spectrum (`bins` values, real and imaginary parts apart): the forward transform's
    /// output, the inverse's input.
    let spectrumRe: UnsafeMutablePointer<Double>, spectrumIm: UnsafeMutablePointer<Double>
    private let scratch: UnsafeMutablePointer<Double>
    private let spectrum: UnsafeMutablePointer<fftw_complex>
    private let forwardPlan: fftw_plan, inversePlan: fftw_plan

    init() {
        let size = 2 * EchoSubtractor.blockSize, bins = size / 2 + 1
        time = fftw_alloc_real(size)
        scratch = fftw_alloc_real(size)
        spectrum = fftw_alloc_complex(bins)
        spectrumRe = .allocate(capacity: bins)
        spectrumIm = .allocate(capacity: bins)
        let (time, spectrum, scratch) = (time, spectrum, scratch)
        let plans = FourierPlanning.serialized {
            (fftw_plan_dft_r2c_1d(Int32(size), time, spectrum, UInt32(FFTW_ESTIMATE)),
             fftw_plan_dft_c2r_1d(Int32(size), spectrum, scratch, UInt32(FFTW_ESTIMATE)))
        }
        guard let forward = plans.0, let inverse = plans.1 else {
            preconditionFailure("FFTW made no plan for a real transform of \(size) samples")
        }
        (forwardPlan, inversePlan) = (forward, inverse)
    }

    deinit {
        FourierPlanning.serialized {
            fftw_destroy_plan(forwardPlan)
            fftw_destroy_plan(inversePlan)
        }
        fftw_free(time)
        fftw_free(scratch)
        fftw_free(spectrum)
        spectrumRe.deallocate()
        spectrumIm.deallocate()
    }

    /// Time → spectrum.
    func forward() {
        fftw_execute(forwardPlan)
        for bin in 0..<bins { (spectrumRe[bin], spectrumIm[bin]) = (spectrum[bin].0, spectrum[bin].1) }
    }

    /// Spectrum → time, `size` times too large (FFTW does not normalize).
    func inverse() {
        for bin in 0..<bins { spectrum[bin] = (spectrumRe[bin], spectrumIm[bin]) }
        fftw_execute(inversePlan)  // c2r overwrites its input, which is scratch here
        for index in 0..<size { time[index] = scratch[index] }
    }
}
