import Foundation

/// The pitch of a voice: the median fundamental frequency of the voiced frames of a stretch
/// of speech, in hertz.
///
/// Each 25 ms frame (every 10 ms, at half the rate given) is compared with itself delayed by
/// every period from 1/400 s to 1/60 s; the cumulative mean normalised difference of the two
/// (de Cheveigné and Kawahara's YIN) dips below `voicingThreshold` at the voice's period.
/// Frames too quiet to be speech (silence, and the echo a request hears as silence) and
/// frames with no such dip (unvoiced sounds, noise) are left out.
public enum VoicePitch {
    /// The lowest and highest pitch looked for, in hertz: a low man's voice to a child's.
    public static let lowestHertz = 60.0
    public static let highestHertz = 400.0
    /// A frame is voiced where its normalised difference falls below this at some period.
    static let voicingThreshold = 0.15
    /// A frame quieter than this (RMS, in 16-bit sample units: −44 dBFS) is not speech.
    static let quietestSpeech: Float = 200
    /// Fewer voiced frames than this (40 ms of voice) tell no pitch: a short "sí" has a few more.
    public static let fewestVoicedFrames = 4

    static let windowSeconds = 0.025
    static let hopSeconds = 0.010

    /// The median pitch of `samples` (mono, 16-bit, at `sampleRate`; of its last
    /// `HeardVoice.keptFrames` voiced frames), or nil where fewer than `fewestVoicedFrames` are voiced.
    public static func median(of samples: [Int16], sampleRate: Int) -> Double? {
        var voice = HeardVoice()
        voice.keep(PCMChunk(format: AudioFormat(sampleRate: sampleRate), samples: samples))
        return voice.pitch
    }

    /// `samples` at half their rate: a pair's mean is the next sample (plenty for a voice's
    /// fundamental).
    static func halved(_ samples: some Collection<Int16>) -> [Float] {
        var halved: [Float] = []
        halved.reserveCapacity(samples.count / 2)
        var first: Int16?
        for sample in samples {
            if let held = first {
                halved.append((Float(held) + Float(sample)) / 2)
                first = nil
            } else {
                first = sample
            }
        }
        return halved
    }

    /// The pitch of each voiced frame of `signal` (at `rate`) that starts before its last
    /// frame's span, in order, and how many samples from the start were analysed (the next
    /// frame starts there).
    static func framePitches(of signal: [Float], rate: Double) -> (pitches: [Double], analysed: Int) {
        let window = Int(rate * windowSeconds), hop = Int(rate * hopSeconds)
        let shortest = Int(rate / highestHertz), longest = Int(rate / lowestHertz)
        guard window > 0, hop > 0 else { return ([], signal.count) }
        var difference = [Float](repeating: 0, count: longest + 1)
        var pitches: [Double] = []
        var start = 0
        signal.withUnsafeBufferPointer { x in
            difference.withUnsafeMutableBufferPointer { d in
                while start + window + longest <= x.count {
                    defer { start += hop }
                    var energy: Float = 0
                    for j in start..<(start + window) { energy += x[j] * x[j] }
                    guard (energy / Float(window)).squareRoot() >= quietestSpeech else { continue }
                    if let period = period(x, start: start, window: window, shortest: shortest, longest: longest, d: d) {
                        pitches.append(rate / period)
                    }
                }
            }
        }
        return (pitches, start)
    }

    /// The period of the frame at `start`, in samples (between two, interpolated), or nil
    /// where it is not voiced. `d` is scratch space for `longest + 1` differences.
    private static func period(_ x: UnsafeBufferPointer<Float>, start: Int, window: Int, shortest: Int, longest: Int,
                               d: UnsafeMutableBufferPointer<Float>) -> Double? {
        d[0] = 1
        var running: Float = 0
        for lag in 1...longest {
            var sum: Float = 0
            for j in start..<(start + window) {
                let step = x[j] - x[j + lag]
                sum += step * step
            }
            running += sum
            d[lag] = running > 0 ? sum * Float(lag) / running : 1
        }
        var lag = shortest
        while lag < longest, d[lag] >= Float(voicingThreshold) { lag += 1 }
        guard lag < longest else { return nil }
        while lag + 1 < longest, d[lag + 1] < d[lag] { lag += 1 }
        // A parabola through the dip and its neighbours finds the period between samples.
        let (before, at, after) = (Double(d[lag - 1]), Double(d[lag]), Double(d[lag + 1]))
        let curve = before - 2 * at + after
        let shift = curve > 0 ? max(-0.5, min(0.5, (before - after) / (2 * curve))) : 0
        return Double(lag) + shift
    }

    /// `hertz` on a scale of semitones (0 at 100 Hz), where a voice's range is even.
    public static func semitones(_ hertz: Double) -> Double { 12 * log2(hertz / 100) }
}

/// The pitch of what a request heard, frame by frame as it arrives (`VoicePitch`): the
/// voiced frames of its last `keptFrames`, so that the pitch is known the moment it ends.
public struct HeardVoice: Sendable {
    /// How many voiced frames are kept: the end of a long utterance is enough to tell a voice.
    public static let keptFrames = 300

    /// The pitch of each voiced frame kept, in hertz.
    public private(set) var framePitches: [Double] = []
    /// At half the rate heard, what is not yet analysed (the start of the next frame on).
    private var pending: [Float] = []
    /// A sample waiting for the next to be halved with.
    private var odd: Int16?
    private var sampleRate: Int?

    public init() {}

    /// Analyses `chunk` (mono) with what came before it.
    public mutating func keep(_ chunk: PCMChunk) {
        guard chunk.format.channels == 1, !chunk.samples.isEmpty else { return }
        if sampleRate != chunk.format.sampleRate {
            (pending, odd, sampleRate) = ([], nil, chunk.format.sampleRate)
        }
        var samples = chunk.samples[...]
        if let held = odd, let first = samples.first {
            pending.append((Float(held) + Float(first)) / 2)
            samples = samples.dropFirst()
            odd = nil
        }
        if samples.count % 2 == 1 { odd = samples.last }
        pending += VoicePitch.halved(samples.prefix(samples.count - samples.count % 2))
        let (pitches, analysed) = VoicePitch.framePitches(of: pending, rate: Double(chunk.format.sampleRate) / 2)
        pending.removeFirst(analysed)
        framePitches += pitches
        if framePitches.count > Self.keptFrames { framePitches.removeFirst(framePitches.count - Self.keptFrames) }
    }

    /// The median pitch of the voiced frames kept, or nil where fewer than
    /// `VoicePitch.fewestVoicedFrames` are.
    public var pitch: Double? {
        guard framePitches.count >= VoicePitch.fewestVoicedFrames else { return nil }
        let sorted = framePitches.sorted()
        return sorted[sorted.count / 2]
    }
}
