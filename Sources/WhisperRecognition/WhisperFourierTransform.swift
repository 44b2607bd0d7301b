internal import CFFTW
import ParleyCore

/// The power spectrum of real frames of one size, by FFTW's real-to-complex transform in
/// Double precision.
///
/// One plan per size serves every thread: the plan is made once (FFTW's planner is not
/// thread-safe, so only `init` calls it, inside `FourierPlanning.serialized`), and
/// `fftw_execute_dft_r2c` with arrays of the caller's own is the one FFTW call that is
/// thread-safe. The plan is made with `FFTW_UNALIGNED`, so any buffer will do, and
/// `FFTW_ESTIMATE`, so planning touches no data and the result does not depend on timing.
final class PowerSpectrumTransform: @unchecked Sendable {
    // @unchecked: the plan is immutable after init and only executed through the
    // new-array interface, which FFTW documents as safe from any thread.

    /// Samples per frame.
    let size: Int
    /// Frequency bins of the spectrum: `size / 2 + 1`.
    var bins: Int { size / 2 + 1 }
    private let plan: fftw_plan

    /// The transform of Whisper's 400-sample frames.
    static let whisperFrame = PowerSpectrumTransform(size: WhisperFeatures.fftSize)

    /// A transform of `size` samples (at least 2). Make one per size and keep it.
    init(size: Int) {
        precondition(size >= 2, "a transform needs at least two samples")
        self.size = size
        let input = fftw_alloc_real(size), output = fftw_alloc_complex(size / 2 + 1)
        defer { fftw_free(input); fftw_free(output) }
        let made = FourierPlanning.serialized {
            fftw_plan_dft_r2c_1d(Int32(size), input, output, UInt32(FFTW_ESTIMATE | FFTW_UNALIGNED))
        }
        guard let plan = made else {
            preconditionFailure("FFTW made no plan for a real transform of \(size) samples")
        }
        self.plan = plan
    }

    deinit { fftw_destroy_plan(plan) }

    /// Writes the power `re² + im²` of each of the `bins` frequencies of the `size` samples at
    /// `frame` into `power`; `spectrum` is scratch space for `bins` complex values (see
    /// `makeScratch`). `frame` is left as it was.
    func power(of frame: UnsafeMutablePointer<Double>, into power: UnsafeMutablePointer<Double>, scratch spectrum: Scratch) {
        fftw_execute_dft_r2c(plan, frame, spectrum.values)
        for bin in 0..<bins {
            let (re, im) = spectrum.values[bin]
            power[bin] = re * re + im * im
        }
    }

    /// Room for one transform's complex output; not shared between threads.
    final class Scratch {
        fileprivate let values: UnsafeMutablePointer<fftw_complex>
        fileprivate init(bins: Int) { values = fftw_alloc_complex(bins) }
        deinit { fftw_free(values) }
    }

    /// Scratch space for `power(of:into:scratch:)`.
    func makeScratch() -> Scratch { Scratch(bins: bins) }
}
