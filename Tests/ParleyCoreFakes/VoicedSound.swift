import Foundation

/// A voiced sound whose pitch is known, for tests of what tells voices apart.
public enum VoicedSound {
    /// `seconds` of a voiced sound at `hertz`, mono 16-bit at `rate`: its first four harmonics,
    /// falling off as a voice's do, at about −16 dBFS, with a little noise.
    public static func samples(_ hertz: Double, seconds: Double, rate: Int = 16_000) -> [Int16] {
        var noise = SystemRandomNumberGenerator()
        return (0..<Int(seconds * Double(rate))).map { index in
            let time = Double(index) / Double(rate)
            let wave = (1...4).reduce(0.0) { $0 + sin(2 * .pi * hertz * Double($1) * time) / Double($1) }
            return Int16(4000 * wave + Double.random(in: -100...100, using: &noise))
        }
    }
}
