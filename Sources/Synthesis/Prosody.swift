import ParleyCore

/// The familiar 0…1 speaking-rate scale, mapped onto eSpeak NG's words per minute.
///
/// 0.5 is normal speed (175 words per minute); 0…0.5 maps linearly to 0…1× and
/// 0.5…1 to 1×…4× (700 words per minute). eSpeak NG cannot speak slower than
/// about 80 words per minute — below that it sounds the same as 80 — so rates
/// under ≈0.229 are spoken at that floor (0.46×) rather than pretending to be
/// slower: the audio is never stretched, and `isClamped` tells callers so.
public enum RateScale {
    /// espeak's normal speed, what rate 0.5 means.
    public static let normalWordsPerMinute = 175
    /// The slowest speed espeak really produces.
    public static let floorWordsPerMinute = 80

    /// How many times normal speed `rate` asks for: 0…4.
    public static func speedMultiplier(for rate: Double) -> Double {
        rate <= 0.5 ? rate / 0.5 : 1 + (rate - 0.5) / 0.5 * 3
    }

    /// The words per minute espeak is given for `rate`, never below the floor.
    public static func wordsPerMinute(for rate: Double) -> Int {
        max(floorWordsPerMinute, Int((Double(normalWordsPerMinute) * speedMultiplier(for: rate)).rounded()))
    }

    /// Whether `rate` asks for a speed below what espeak can produce.
    public static func isClamped(_ rate: Double) -> Bool {
        Double(normalWordsPerMinute) * speedMultiplier(for: rate) < Double(floorWordsPerMinute)
    }
}

/// An utterance's rate, pitch, volume and delays, checked and turned into what espeak and the samples need.
struct Prosody: Sendable, Equatable {
    /// espeak's `espeakRATE`.
    var wordsPerMinute: Int
    /// espeak's `espeakPITCH`, 0…100 with 50 normal: its base pitch is scaled by
    /// 2^((pitch − 50) / 50), so a multiplier m is 50 + 50·log2(m).
    var pitch: Int
    /// Factor applied to every sample: volume is linear in amplitude, exact, and never clips.
    var amplitude: Double
    /// Silence before and after the speech, in samples of `AudioFormat.synthesis`.
    var leadingSilence: Int
    var trailingSilence: Int

    /// The accepted ranges.
    static let rateRange = 0.0...1.0
    static let pitchRange = 0.5...2.0
    static let volumeRange = 0.0...1.0
    static let delayRange = 0.0...60.0

    /// Checks every setting of `utterance`; one out of range is an error naming it and its range.
    init(validating utterance: Utterance) throws {
        try Self.check("rate", utterance.rate, Self.rateRange)
        try Self.check("pitch multiplier", utterance.pitchMultiplier, Self.pitchRange)
        try Self.check("volume", utterance.volume, Self.volumeRange)
        try Self.check("pre-utterance delay", utterance.preUtteranceDelay, Self.delayRange)
        try Self.check("post-utterance delay", utterance.postUtteranceDelay, Self.delayRange)
        wordsPerMinute = RateScale.wordsPerMinute(for: utterance.rate)
        pitch = min(100, max(0, Int((50 + 50 * log2(utterance.pitchMultiplier)).rounded())))
        amplitude = utterance.volume
        leadingSilence = AudioFormat.synthesis.sampleCount(forSeconds: utterance.preUtteranceDelay)
        trailingSilence = AudioFormat.synthesis.sampleCount(forSeconds: utterance.postUtteranceDelay)
    }

    private static func check(_ setting: String, _ value: Double, _ range: ClosedRange<Double>) throws {
        guard value.isFinite, range.contains(value) else {
            throw SynthesisError.outOfRange(setting: setting, value: value, range: range)
        }
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
