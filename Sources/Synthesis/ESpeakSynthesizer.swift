public import ParleyCore
public import Locales
import Foundation
import Synchronization

/// Speech synthesis and phoneme transcription with eSpeak NG.
///
/// Every espeak call — initialization, voice selection, synthesis, phoneme
/// queries, voice listing — runs on the one espeak thread of the process
/// (`ESpeakHost`), so any number of synthesizers and tasks may use it at once:
/// their requests queue up and run one at a time.
///
/// ```swift
/// let synthesizer = try ESpeakSynthesizer(dataDirectories: [Fixtures.dataDirectory])
/// for try await event in synthesizer.speak(Utterance(text: "Hola.", voice: .locale(LocaleTag("es")!))) {
///     if case let .audio(chunk) = event { try await sink.enqueue(chunk) }
/// }
/// ```
public final class ESpeakSynthesizer: SpeechSynthesizer, PhonemeTranscriber, Sendable {
    let host = ESpeakHost.shared
    let registry: LocaleRegistry?
    let genders: VoiceGenderTable
    private let state = Mutex(State())

    /// What changes while the synthesizer is used.
    struct State {
        var overrides: PronunciationOverrides = .none
        var catalog: VoiceCatalog?
        var nextRun: UInt64 = 0
        var running: [UInt64: EventChannel] = [:]
    }

    /// Creates a synthesizer. `registry` resolves locales (`es` → `es-ES` → voice `es`);
    /// `genders` says which variant speaks with which gender; `overrides` replace
    /// the pronunciation of words.
    public init(registry: LocaleRegistry? = nil, genders: VoiceGenderTable = VoiceGenderTable(),
                overrides: PronunciationOverrides = .none) {
        self.registry = registry
        self.genders = genders
        state.withLock { $0.overrides = overrides }
    }

    /// Creates a synthesizer with the locale tables and gender table of Parley's data directories.
    public convenience init(dataDirectories: [String], overrides: PronunciationOverrides = .none) throws {
        self.init(registry: try LocaleRegistry.load(from: dataDirectories),
                  genders: try VoiceGenderTable.load(from: dataDirectories), overrides: overrides)
    }

    /// The pronunciation overrides applied to every utterance from now on.
    public var overrides: PronunciationOverrides {
        get { state.withLock { $0.overrides } }
        set { state.withLock { $0.overrides = newValue } }
    }

    /// The installed voices and the rules that pick one (listed once, then kept).
    public func catalog() async throws -> VoiceCatalog {
        if let catalog = cachedCatalog { return catalog }
        return try await host.run { self.catalogOnEngineThread($0) }
    }

    /// The catalog once listed.
    var cachedCatalog: VoiceCatalog? {
        get { state.withLock { $0.catalog } }
        set { state.withLock { $0.catalog = newValue } }
    }

    /// Keeps `channel` for `stopSpeaking()` until its reader has every event.
    func register(_ channel: EventChannel) {
        state.withLock { state in
            state.running = state.running.filter { !$0.value.isSpent }
            state.nextRun += 1
            state.running[state.nextRun] = channel
        }
    }

    /// The utterances whose readers have not reached their end.
    func runningChannels() -> [EventChannel] {
        state.withLock { state in
            state.running = state.running.filter { !$0.value.isSpent }
            return Array(state.running.values)
        }
    }

    /// Every installed language voice; empty when eSpeak NG cannot start.
    public func voices() async -> [Voice] {
        (try? await catalog().voices) ?? []
    }

    /// The phonemes of `text` spoken by `voice`, clause by clause through
    /// `espeak_TextToPhonemes`, clauses joined by a space. Text inside `[[…]]` is read
    /// as espeak phoneme input, as speech reads it, so the phonemes an override
    /// really produces can be checked (`[[t@m'A:toU]]` → `t@m'A:t#oU`).
    public func phonemes(of text: String, voice: String, notation: PhonemeNotation,
                         separator: Character?) async throws -> String {
        let mode = try Self.phonemeMode(notation, separator: separator)
        let resolved = try await catalog().resolve(identifier: voice)
        return try await host.run { engine in
            try engine.selectVoice(resolved.espeakName)
            return try engine.textToPhonemes(text, mode: mode, phonemeInput: text.contains("[["))
                .map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
                .joined(separator: " ")
        }
    }

    /// espeak's phoneme mode: bit 1 for IPA, the separator's code point in bits 8–23.
    static func phonemeMode(_ notation: PhonemeNotation, separator: Character?) throws -> Int32 {
        var mode: Int32 = notation == .ipa ? 0x02 : 0
        if let separator {
            guard separator.unicodeScalars.count == 1, let scalar = separator.unicodeScalars.first,
                  scalar.value <= 0xFFFF, scalar.value > 0 else {
                throw SynthesisError.unusableSeparator(separator)
            }
            mode |= Int32(scalar.value) << 8
        }
        return mode
    }
}
