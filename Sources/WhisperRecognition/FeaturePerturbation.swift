/// Moves Whisper's feature values by a few float32 steps, the same way for the same seed: a
/// measure of how much a reading depends on the features' last bits, which differ between
/// processors (`parley-bench stability`). Conversations never perturb their features.
public struct FeaturePerturbation: Sendable, Equatable {
    /// The most float32 steps a value moves, up or down.
    public var steps: Int
    /// The seed of the moves; the same seed moves the same values the same way.
    public var seed: UInt64

    /// A perturbation of up to `steps` steps (at least 1) from `seed`.
    public init(steps: Int, seed: UInt64) {
        precondition(steps >= 1, "a perturbation moves values by at least one step")
        self.steps = steps
        self.seed = seed
    }

    /// Moves each value of `values` by a number of steps drawn uniformly from −steps…steps.
    /// Zeros (the padding frames' values) stay zero.
    func apply(to values: inout [Float]) {
        var state = seed
        for index in values.indices where values[index] != 0 {
            // SplitMix64: a small, well-mixed generator that needs no state but the seed.
            state &+= 0x9E37_79B9_7F4A_7C15
            var mixed = (state ^ (state >> 30)) &* 0xBF58_476D_1CE4_E5B9
            mixed = (mixed ^ (mixed >> 27)) &* 0x94D0_49BB_1331_11EB
            mixed ^= mixed >> 31
            let move = Int(mixed % UInt64(2 * steps + 1)) - steps
            for _ in 0..<abs(move) { values[index] = move > 0 ? values[index].nextUp : values[index].nextDown }
        }
    }
}
