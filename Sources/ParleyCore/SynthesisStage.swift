/// Gender of a voice, where it is known.
public enum VoiceGender: String, Sendable, Hashable, Codable, CaseIterable {
    case male, female, unspecified
}

/// An installed voice.
public struct Voice: Sendable, Hashable, Codable {
    /// The synthesizer's identifier, e.g. `en-us` or `roa/es`.
    public var identifier: String
    /// Human-readable name, e.g. `English (America)`.
    public var name: String
    /// The language it speaks, e.g. `en`.
    public var language: String
    /// The locale it speaks, when it has a region, e.g. `en-US`.
    public var locale: LocaleTag?
    /// The voice's gender.
    public var gender: VoiceGender

    /// Creates a voice description.
    public init(identifier: String, name: String, language: String, locale: LocaleTag?, gender: VoiceGender) {
        self.identifier = identifier
        self.name = name
        self.language = language
        self.locale = locale
        self.gender = gender
    }
}

/// How an utterance picks its voice.
public enum VoiceSelection: Sendable, Hashable {
    /// A voice by identifier, e.g. `en-us`.
    case identifier(String)
    /// The best voice for a locale (a bare language goes through the synthesis priority table),
    /// preferring a gender where the language has a choice.
    case locale(LocaleTag, gender: VoiceGender = .unspecified)
}

/// One thing to say, with how to say it.
public struct Utterance: Sendable, Hashable {
    /// The text to speak.
    public var text: String
    /// Which voice speaks it.
    public var voice: VoiceSelection
    /// Speed on the 0…1 scale: 0.5 is normal, 0…0.5 maps to 0…1× and 0.5…1 to 1×…4×.
    public var rate: Double
    /// Pitch multiplier, 0.5…2; 1 is the voice's own pitch.
    public var pitchMultiplier: Double
    /// Volume, 0…1.
    public var volume: Double
    /// Silence before the speech, in seconds.
    public var preUtteranceDelay: Double
    /// Silence after the speech, in seconds.
    public var postUtteranceDelay: Double

    /// The default speaking rate.
    public static let defaultRate = 0.5

    /// Creates an utterance with normal rate, pitch and volume and no delays.
    public init(text: String, voice: VoiceSelection, rate: Double = Utterance.defaultRate,
                pitchMultiplier: Double = 1, volume: Double = 1,
                preUtteranceDelay: Double = 0, postUtteranceDelay: Double = 0) {
        self.text = text
        self.voice = voice
        self.rate = rate
        self.pitchMultiplier = pitchMultiplier
        self.volume = volume
        self.preUtteranceDelay = preUtteranceDelay
        self.postUtteranceDelay = postUtteranceDelay
    }
}

/// What happens while an utterance is synthesized, in order.
public enum SynthesisEvent: Sendable, Equatable {
    /// Synthesis began with this voice.
    case started(Voice)
    /// A word is about to be spoken; the range is in the utterance's text.
    case word(Range<String.Index>)
    /// Audio, in the order it is to be played.
    case audio(PCMChunk)
    /// The whole utterance was synthesized.
    case finished
    /// Synthesis was stopped before the end.
    case cancelled
}

/// Turns text into speech.
public protocol SpeechSynthesizer: AnyObject, Sendable {
    /// Every installed voice.
    func voices() async -> [Voice]

    /// Synthesizes an utterance, delivering events and audio as they are produced.
    /// The stream ends after `.finished` or `.cancelled`, or throws for a bad utterance.
    func speak(_ utterance: Utterance) -> AsyncThrowingStream<SynthesisEvent, any Error>

    /// Stops the utterance being synthesized at once; its stream ends with `.cancelled`.
    func stopSpeaking() async
}

/// Pronunciations that replace the synthesizer's own, per language.
///
/// Values are eSpeak NG phoneme mnemonics (what goes inside `[[…]]`), already
/// converted from IPA and validated by the Pronunciation module.
public struct PronunciationOverrides: Sendable, Hashable {
    /// language code (`en`) → lowercased word or phrase → phoneme mnemonics.
    public var entries: [String: [String: String]]

    /// Creates overrides from a table.
    public init(_ entries: [String: [String: String]] = [:]) {
        self.entries = entries
    }

    /// No overrides.
    public static let none = PronunciationOverrides()

    /// The override for `word` in `language`, if any (case-insensitive).
    public func phonemes(for word: String, language: String) -> String? {
        entries[language.lowercased()]?[word.lowercased()]
    }
}

/// How phonemes are written.
public enum PhonemeNotation: Sendable, Hashable {
    /// eSpeak NG's ASCII mnemonics, what phoneme input `[[…]]` accepts (`t@m'A:toU`).
    case mnemonic
    /// The International Phonetic Alphabet (`təmˈɑːtoʊ`).
    case ipa
}

/// Tells how the synthesizer pronounces text, as phonemes.
///
/// The eSpeak NG synthesizer implements this on its own thread (espeak's state
/// is global); the Pronunciation module uses it to build IPA tables and to show
/// how a word is pronounced now.
public protocol PhonemeTranscriber: AnyObject, Sendable {
    /// The phonemes of `text` spoken by `voice` (an espeak voice identifier such as `en-us`),
    /// in `notation`. With a `separator`, phonemes are separated by it
    /// (espeak's separator option); stress marks stay before the stressed vowel.
    func phonemes(of text: String, voice: String, notation: PhonemeNotation,
                  separator: Character?) async throws -> String
}
