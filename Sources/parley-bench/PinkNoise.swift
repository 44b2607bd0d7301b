/// Pink noise (Paul Kellet's filter over white noise), from a fixed seed.
enum PinkNoise {
    static func samples(count: Int, seed: UInt64) -> [Double] {
        var state = seed | 1
        var (b0, b1, b2, b3, b4, b5, b6) = (0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0)
        return (0..<count).map { _ in
            state = state &* 6364136223846793005 &+ 1442695040888963407
            let white = Double(Int64(bitPattern: state >> 11) % 2_000_000) / 1_000_000 - 1
            b0 = 0.99886 * b0 + white * 0.0555179
            b1 = 0.99332 * b1 + white * 0.0750759
            b2 = 0.96900 * b2 + white * 0.1538520
            b3 = 0.86650 * b3 + white * 0.3104856
            b4 = 0.55000 * b4 + white * 0.5329522
            b5 = -0.7616 * b5 - white * 0.0168980
            let pink = b0 + b1 + b2 + b3 + b4 + b5 + b6 + white * 0.5362
            b6 = white * 0.115926
            return pink
        }
    }
}
