public import ParleyCore
import Foundation

/// How espeak pronounces a word now, so a person starts from the current pronunciation.
public struct LookupResult: Sendable, Equatable {
    /// The word looked up.
    public var word: String
    /// What espeak says now, in IPA: the override's phonemes if there is one, else espeak's own.
    public var current: String
    /// What espeak says without any override, in IPA.
    public var espeakOwn: String
    /// The override in force, if any.
    public var override: ResolvedEntry?
}

/// Looks words up through a phoneme transcriber (espeak, on its own thread).
public struct PronunciationLookup: Sendable {
    /// The dictionaries.
    public let dictionaries: PronunciationDictionaries
    /// espeak's transcriptions.
    public let transcriber: any PhonemeTranscriber

    /// Creates a lookup.
    public init(dictionaries: PronunciationDictionaries, transcriber: any PhonemeTranscriber) {
        self.dictionaries = dictionaries
        self.transcriber = transcriber
    }

    /// How `voice` pronounces `word` in `language` now.
    public func lookup(_ word: String, language: String, voice: String) async throws -> LookupResult {
        let override = try dictionaries.load(language: language).entry(for: word)
        let own = try await transcriber.phonemes(of: word, voice: voice, notation: .ipa, separator: nil)
        var current = own
        if let override {
            current = try await transcriber.phonemes(of: "[[\(override.mnemonics)]]", voice: voice, notation: .ipa, separator: nil)
        }
        return LookupResult(word: word, current: current, espeakOwn: own, override: override)
    }
}

/// Speaks a word before and after an override, for a person to compare.
public enum PronunciationPreview {
    /// The two utterances: the word as espeak says it on its own, then the
    /// override's phonemes as phoneme input (`[[…]]`), which the synthesizer
    /// passes to espeak as phonemes.
    public static func utterances(word: String, mnemonics: String?, voice: VoiceSelection) -> [Utterance] {
        var list = [Utterance(text: word, voice: voice)]
        if let mnemonics { list.append(Utterance(text: "[[\(mnemonics)]]", voice: voice, preUtteranceDelay: 0.4)) }
        return list
    }

    /// Synthesizes the utterances into `sink` one after the other and waits until they have played.
    public static func play(word: String, mnemonics: String?, voice: VoiceSelection,
                            synthesizer: any SpeechSynthesizer, sink: any AudioSink) async throws {
        for utterance in utterances(word: word, mnemonics: mnemonics, voice: voice) {
            for try await event in synthesizer.speak(utterance) {
                if case let .audio(chunk) = event { try await sink.enqueue(chunk) }
            }
        }
        try await sink.drain()
    }
}
