/// Why synthesis failed, in words a person can act on.
public enum SynthesisError: Error, Sendable, Equatable, CustomStringConvertible {
    /// eSpeak NG could not be initialized; the reason comes from espeak.
    case engineUnavailable(String)
    /// A setting of the utterance is outside its range.
    case outOfRange(setting: String, value: Double, range: ClosedRange<Double>)
    /// No installed voice has this identifier; `suggestions` are the closest ones.
    case unknownVoice(String, suggestions: [String])
    /// No installed voice speaks this locale.
    case noVoiceForLocale(String, suggestions: [String])
    /// eSpeak NG refused a voice it listed (a broken voice file or variant).
    case voiceNotLoaded(String, reason: String)
    /// An override's phoneme string has a symbol eSpeak NG does not know.
    case invalidPhonemes(word: String, phonemes: String, symbol: String, position: Int)
    /// A phoneme separator must be one character of the Basic Multilingual Plane.
    case unusableSeparator(Character)
    /// eSpeak NG failed while synthesizing or transcribing.
    case engineFailed(String)

    /// One sentence: what failed and what to do.
    public var description: String {
        switch self {
        case let .engineUnavailable(reason):
            return "eSpeak NG is not usable (\(reason)); install espeak-ng-data and libespeak-ng1"
        case let .outOfRange(setting, value, range):
            return "\(setting) \(format(value)) is out of range; use a value from \(format(range.lowerBound)) to \(format(range.upperBound))"
        case let .unknownVoice(name, suggestions):
            return "no voice '\(name)'\(hint(suggestions)) (`parley voices` lists them)"
        case let .noVoiceForLocale(locale, suggestions):
            return "no voice speaks \(locale)\(hint(suggestions)) (`parley voices` lists them)"
        case let .voiceNotLoaded(name, reason):
            return "eSpeak NG could not load voice '\(name)' (\(reason)); choose another voice with --voice"
        case let .invalidPhonemes(word, phonemes, symbol, position):
            return "the pronunciation of '\(word)' [[\(phonemes)]] has '\(symbol)' at position \(position), "
                + "which is not an eSpeak NG phoneme; fix the entry in the pronunciation dictionary"
        case let .unusableSeparator(character):
            return "'\(character)' cannot separate phonemes; use a single character such as _ or a space"
        case let .engineFailed(reason):
            return "eSpeak NG failed: \(reason)"
        }
    }

    private func hint(_ suggestions: [String]) -> String {
        suggestions.isEmpty ? "" : "; did you mean \(suggestions.joined(separator: ", "))?"
    }

    private func format(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e9 ? String(Int(value)) : String(value)
    }
}
