import ParleyCore

/// Loudness of the capture since it was last read, for a level meter.
///
/// A meter redraws at its own pace (say 20 times a second) while fragments
/// arrive every few milliseconds; reporting only the latest fragment would
/// miss most peaks. So fragments are pooled until the next read: RMS over all
/// of them, and their highest peak.
struct LevelMeter {
    private var sumOfSquares = 0.0
    private var sampleCount = 0
    private var peak = 0.0
    private var lastReading = AudioLevel.silent

    /// Adds the level of a fragment of `count` samples.
    mutating func add(_ level: AudioLevel, sampleCount count: Int) {
        sumOfSquares += level.rms * level.rms * Double(count)
        sampleCount += count
        peak = max(peak, level.peak)
    }

    /// The level since the previous read; the previous reading when nothing new arrived.
    mutating func read() -> AudioLevel {
        guard sampleCount > 0 else { return lastReading }
        lastReading = AudioLevel(rms: (sumOfSquares / Double(sampleCount)).squareRoot(), peak: peak)
        sumOfSquares = 0
        sampleCount = 0
        peak = 0
        return lastReading
    }
}
