import Foundation

extension WhisperFeatures {
    /// The Fourier transform of a real frame, computed operation for operation as numpy's
    /// `fft.rfft` computes it, so that Parley's power spectrum is faster-whisper's to the bit.
    ///
    /// numpy runs pocketfft's real transform in Double (for float32 frames too: the result is
    /// then rounded to complex64): FFTPACK's algorithm, the length cut into factors of 4
    /// first, then odd primes (400 = 4·4·5·5), one pass per factor from the last factor to
    /// the first, each rotating its inputs by twiddle factors. The result is in FFTPACK's
    /// order: `r0, r1, i1, r2, i2, …`, and for an even length the last real part alone.
    /// Rounding makes the order of operations matter: a transform computed another way gives
    /// values a few Double steps apart, and some 1 in 40,000 of them then round to another
    /// float32. So the passes below keep the reference's order of every addition and
    /// multiplication, and its twiddles (computed from octant tables as it computes them).
    /// Radix-4 and radix-5 passes are implemented: the lengths Whisper uses need no others.
    struct RealTransform: Sendable {
        /// Points in a frame.
        let size: Int
        /// The factors in pocketfft's order, each with its twiddles (none for the last).
        private let factors: [(radix: Int, twiddles: [Double])]

        /// A transform of `size` points, which must factor into 4s and 5s.
        init(size: Int) {
            precondition(size > 1, "a transform needs at least two points")
            self.size = size
            var radices: [Int] = []
            var rest = size
            while rest % 4 == 0 { radices.append(4); rest /= 4 }
            while rest % 5 == 0 { radices.append(5); rest /= 5 }
            precondition(rest == 1, "only lengths of 4s and 5s are implemented, not \(size)")
            let roots = UnitRoots(size)
            var factors: [(radix: Int, twiddles: [Double])] = []
            var l1 = 1
            for (position, radix) in radices.enumerated() {
                let ido = size / (l1 * radix)
                var twiddles = [Double](repeating: 0, count: (radix - 1) * (ido - 1))
                if position < radices.count - 1 {
                    for j in 1..<radix {
                        for i in stride(from: 1, through: (ido - 1) / 2, by: 1) {
                            let root = roots[j * l1 * i]
                            twiddles[(j - 1) * (ido - 1) + 2 * i - 2] = root.re
                            twiddles[(j - 1) * (ido - 1) + 2 * i - 1] = root.im
                        }
                    }
                }
                factors.append((radix, twiddles))
                l1 *= radix
            }
            self.factors = factors
        }

        /// Transforms the `size` values of `data` in place (FFTPACK's order, above);
        /// `scratch` (`size` values) is overwritten.
        func forward(_ data: UnsafeMutablePointer<Double>, scratch: UnsafeMutablePointer<Double>) {
            var (source, target) = (data, scratch)
            var l1 = size
            for factor in factors.reversed() {
                let ido = size / l1
                l1 /= factor.radix
                factor.twiddles.withUnsafeBufferPointer { twiddles in
                    let pass = TransformPass(ido: ido, l1: l1, cc: source, ch: target, wa: twiddles.baseAddress)
                    if factor.radix == 4 { pass.radix4() } else { pass.radix5() }
                }
                (source, target) = (target, source)
            }
            if source != data { data.update(from: source, count: size) }
        }

        /// `e^(2πik/n)` as pocketfft's `sincos_2pibyn` gives it: the product of a fine and a
        /// coarse root, each from the cosine and sine of an angle within the first octant.
        struct UnitRoots {
            let n: Int
            private let fine: [(re: Double, im: Double)], coarse: [(re: Double, im: Double)]
            private let shift: Int, mask: Int

            init(_ n: Int) {
                self.n = n
                let pi: Float80 = 3.141592653589793238462643383279502884197
                let angle = Double(0.25 * pi / Float80(n))
                let count = (n + 2) / 2
                var shift = 1
                while (1 << shift) * (1 << shift) < count { shift += 1 }
                let mask = (1 << shift) - 1
                (self.shift, self.mask) = (shift, mask)
                fine = [(1, 0)] + (1..<mask + 1).map { Self.octant($0, n, angle) }
                coarse = [(1, 0)] + (1..<(count + mask) / (mask + 1)).map { Self.octant($0 * (mask + 1), n, angle) }
            }

            subscript(index: Int) -> (re: Double, im: Double) {
                let mirrored = 2 * index > n
                let k = mirrored ? n - index : index
                let (a, b) = (fine[k & mask], coarse[k >> shift])
                let im = a.re * b.im + a.im * b.re
                return (a.re * b.re - a.im * b.im, mirrored ? -im : im)
            }

            /// `e^(2πx/8n)·…` for `x = 8·index`, folded into the first octant.
            private static func octant(_ index: Int, _ n: Int, _ angle: Double) -> (re: Double, im: Double) {
                var x = index << 3
                if x < 4 * n {
                    if x < 2 * n {
                        if x < n { return (cos(Double(x) * angle), sin(Double(x) * angle)) }
                        return (sin(Double(2 * n - x) * angle), cos(Double(2 * n - x) * angle))
                    }
                    x -= 2 * n
                    if x < n { return (-sin(Double(x) * angle), cos(Double(x) * angle)) }
                    return (-cos(Double(2 * n - x) * angle), sin(Double(2 * n - x) * angle))
                }
                x = 8 * n - x
                if x < 2 * n {
                    if x < n { return (cos(Double(x) * angle), -sin(Double(x) * angle)) }
                    return (sin(Double(2 * n - x) * angle), -cos(Double(2 * n - x) * angle))
                }
                x -= 2 * n
                if x < n { return (-sin(Double(x) * angle), -cos(Double(x) * angle)) }
                return (-cos(Double(2 * n - x) * angle), -sin(Double(2 * n - x) * angle))
            }
        }
    }
}

/// One forward pass of `RealTransform`: `l1` groups of `ido` values per input, in FFTPACK's
/// layout. `cc(a, b, c)` reads input `c` of group `b`; `set(a, b, c, …)` writes output `b` of
/// group `c`.
private struct TransformPass {
    let ido: Int, l1: Int
    let cc: UnsafePointer<Double>, ch: UnsafeMutablePointer<Double>
    let wa: UnsafePointer<Double>?

    init(ido: Int, l1: Int, cc: UnsafeMutablePointer<Double>, ch: UnsafeMutablePointer<Double>, wa: UnsafePointer<Double>?) {
        (self.ido, self.l1, self.cc, self.ch, self.wa) = (ido, l1, UnsafePointer(cc), ch, wa)
    }

    private func cc(_ a: Int, _ b: Int, _ c: Int) -> Double { cc[a + ido * (b + l1 * c)] }
    private func w(_ x: Int, _ i: Int) -> Double { wa![i + x * (ido - 1)] }
    private func set(_ a: Int, _ b: Int, _ c: Int, _ radix: Int, _ value: Double) { ch[a + ido * (b + radix * c)] = value }

    /// `conj(c + di)·(e + fi)` as (real, imaginary).
    private func conjugateProduct(_ c: Double, _ d: Double, _ e: Double, _ f: Double) -> (Double, Double) {
        (c * e + d * f, c * f - d * e)
    }

    func radix4() {
        let halfRootTwo = Double(0.707106781186547524400844362104849 as Float80)
        for k in 0..<l1 {
            let (tr1, d31) = (cc(0, k, 3) + cc(0, k, 1), cc(0, k, 3) - cc(0, k, 1))
            let (tr2, d02) = (cc(0, k, 0) + cc(0, k, 2), cc(0, k, 0) - cc(0, k, 2))
            set(0, 2, k, 4, d31)
            set(ido - 1, 1, k, 4, d02)
            set(0, 0, k, 4, tr2 + tr1)
            set(ido - 1, 3, k, 4, tr2 - tr1)
        }
        if ido & 1 == 0 {
            for k in 0..<l1 {
                let ti1 = -halfRootTwo * (cc(ido - 1, k, 1) + cc(ido - 1, k, 3))
                let tr1 = halfRootTwo * (cc(ido - 1, k, 1) - cc(ido - 1, k, 3))
                set(ido - 1, 0, k, 4, cc(ido - 1, k, 0) + tr1)
                set(ido - 1, 2, k, 4, cc(ido - 1, k, 0) - tr1)
                set(0, 3, k, 4, ti1 + cc(ido - 1, k, 2))
                set(0, 1, k, 4, ti1 - cc(ido - 1, k, 2))
            }
        }
        guard ido > 2 else { return }
        for k in 0..<l1 {
            for i in stride(from: 2, to: ido, by: 2) {
                let ic = ido - i
                let (cr2, ci2) = conjugateProduct(w(0, i - 2), w(0, i - 1), cc(i - 1, k, 1), cc(i, k, 1))
                let (cr3, ci3) = conjugateProduct(w(1, i - 2), w(1, i - 1), cc(i - 1, k, 2), cc(i, k, 2))
                let (cr4, ci4) = conjugateProduct(w(2, i - 2), w(2, i - 1), cc(i - 1, k, 3), cc(i, k, 3))
                let (tr1, tr4) = (cr4 + cr2, cr4 - cr2)
                let (ti1, ti4) = (ci2 + ci4, ci2 - ci4)
                let (tr2, tr3) = (cc(i - 1, k, 0) + cr3, cc(i - 1, k, 0) - cr3)
                let (ti2, ti3) = (cc(i, k, 0) + ci3, cc(i, k, 0) - ci3)
                set(i - 1, 0, k, 4, tr2 + tr1); set(ic - 1, 3, k, 4, tr2 - tr1)
                set(i, 0, k, 4, ti1 + ti2); set(ic, 3, k, 4, ti1 - ti2)
                set(i - 1, 2, k, 4, tr3 + ti4); set(ic - 1, 1, k, 4, tr3 - ti4)
                set(i, 2, k, 4, tr4 + ti3); set(ic, 1, k, 4, tr4 - ti3)
            }
        }
    }

    func radix5() {
        let tr11 = Double(0.3090169943749474241022934171828191 as Float80)
        let ti11 = Double(0.9510565162951535721164393333793821 as Float80)
        let tr12 = Double(-0.8090169943749474241022934171828191 as Float80)
        let ti12 = Double(0.5877852522924731291687059546390728 as Float80)
        for k in 0..<l1 {
            let (cr2, ci5) = (cc(0, k, 4) + cc(0, k, 1), cc(0, k, 4) - cc(0, k, 1))
            let (cr3, ci4) = (cc(0, k, 3) + cc(0, k, 2), cc(0, k, 3) - cc(0, k, 2))
            let c0 = cc(0, k, 0)
            set(0, 0, k, 5, c0 + cr2 + cr3)
            set(ido - 1, 1, k, 5, c0 + tr11 * cr2 + tr12 * cr3)
            set(0, 2, k, 5, ti11 * ci5 + ti12 * ci4)
            set(ido - 1, 3, k, 5, c0 + tr12 * cr2 + tr11 * cr3)
            set(0, 4, k, 5, ti12 * ci5 - ti11 * ci4)
        }
        guard ido > 1 else { return }
        for k in 0..<l1 {
            for i in stride(from: 2, to: ido, by: 2) {
                let ic = ido - i
                var (dr2, di2) = conjugateProduct(w(0, i - 2), w(0, i - 1), cc(i - 1, k, 1), cc(i, k, 1))
                var (dr3, di3) = conjugateProduct(w(1, i - 2), w(1, i - 1), cc(i - 1, k, 2), cc(i, k, 2))
                var (dr4, di4) = conjugateProduct(w(2, i - 2), w(2, i - 1), cc(i - 1, k, 3), cc(i, k, 3))
                var (dr5, di5) = conjugateProduct(w(3, i - 2), w(3, i - 1), cc(i - 1, k, 4), cc(i, k, 4))
                // a' = a + b, b' = i·(b − a), as FFTPACK rearranges the pairs (2, 5) and (3, 4).
                (dr2, di2, dr5, di5) = (dr2 + dr5, di2 + di5, di2 - di5, dr5 - dr2)
                (dr3, di3, dr4, di4) = (dr3 + dr4, di3 + di4, di3 - di4, dr4 - dr3)
                let (re0, im0) = (cc(i - 1, k, 0), cc(i, k, 0))
                set(i - 1, 0, k, 5, re0 + dr2 + dr3)
                set(i, 0, k, 5, im0 + di2 + di3)
                let tr2 = re0 + tr11 * dr2 + tr12 * dr3, ti2 = im0 + tr11 * di2 + tr12 * di3
                let tr3 = re0 + tr12 * dr2 + tr11 * dr3, ti3 = im0 + tr12 * di2 + tr11 * di3
                let tr5 = ti11 * dr5 + ti12 * dr4, ti5 = ti11 * di5 + ti12 * di4
                let tr4 = ti12 * dr5 - ti11 * dr4, ti4 = ti12 * di5 - ti11 * di4
                set(i - 1, 2, k, 5, tr2 + tr5); set(ic - 1, 1, k, 5, tr2 - tr5)
                set(i, 2, k, 5, ti5 + ti2); set(ic, 1, k, 5, ti5 - ti2)
                set(i - 1, 4, k, 5, tr3 + tr4); set(ic - 1, 3, k, 5, tr3 - tr4)
                set(i, 4, k, 5, ti4 + ti3); set(ic, 3, k, 5, ti4 - ti3)
            }
        }
    }
}
