/// A run of 16-bit PCM samples that moves through the pipeline as one piece.
///
/// A captured chunk with no samples whose `echo` is `.person` is the echo guard's word that a
/// person began over the machine's speech, sent ahead of the audio it judged: that audio
/// follows, in later chunks, once Parley's echo subtraction has taken the echo out of it.
public struct PCMChunk: Sendable, Equatable {
    /// The format of `samples`.
    public var format: AudioFormat
    /// Interleaved signed 16-bit samples.
    public var samples: [Int16]
    /// For captured audio: what the echo guard made of it while the machine's own speech
    /// could reach the microphone (`.noPlayback` otherwise, and for every other chunk).
    public var echo: EchoVerdict
    /// For captured audio heard while the machine speaks: Parley's echo subtraction explains
    /// it (what it leaves is a small part of what the microphone heard): the echo alone, with
    /// no person in it.
    public var echoAlone: Bool

    /// Creates a chunk of `samples` in `format`.
    public init(format: AudioFormat, samples: [Int16], echo: EchoVerdict = .noPlayback, echoAlone: Bool = false) {
        self.format = format
        self.samples = samples
        self.echo = echo
        self.echoAlone = echoAlone
    }

    /// Seconds of audio in the chunk.
    public var duration: Double { format.duration(ofSamples: samples.count) }

    /// Whether the chunk holds no samples.
    public var isEmpty: Bool { samples.isEmpty }

    /// Loudness of the chunk, for level meters and silence checks.
    public var level: AudioLevel { AudioLevel(measuring: samples) }
}

/// Loudness of a run of samples, each figure on a 0…1 scale of full scale.
public struct AudioLevel: Sendable, Equatable {
    /// Root mean square amplitude.
    public var rms: Double
    /// Largest absolute amplitude.
    public var peak: Double

    /// Creates a level from known figures.
    public init(rms: Double, peak: Double) {
        self.rms = rms
        self.peak = peak
    }

    /// Measures `samples`; an empty run is silent.
    public init(measuring samples: some Collection<Int16>) {
        guard !samples.isEmpty else {
            self.init(rms: 0, peak: 0)
            return
        }
        var sumOfSquares = 0.0
        var peak = 0
        for sample in samples {
            let value = Int(sample)
            sumOfSquares += Double(value * value)
            peak = max(peak, abs(value))
        }
        let fullScale = 32_768.0
        self.init(rms: (sumOfSquares / Double(samples.count)).squareRoot() / fullScale,
                  peak: Double(peak) / fullScale)
    }

    /// Silence.
    public static let silent = AudioLevel(rms: 0, peak: 0)

    /// RMS in decibels relative to full scale (−∞ for silence).
    public var rmsDecibels: Double { 20 * log10(rms) }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
