public import ParleyCore
public import Locales
import Foundation

/// What eSpeak NG has installed: its version, data path and voices.
public struct SynthesisInventory: Sendable, Equatable {
    /// eSpeak NG's version string.
    public var version: String
    /// Where its data (`espeak-ng-data`) lives.
    public var dataPath: String
    /// Every installed voice.
    public var voices: [Voice]

    /// Whether some voice speaks `locale`'s language with its region, or the bare language.
    public func hasVoice(for locale: LocaleTag, espeakVoice: String?) -> Bool {
        guard let espeakVoice else { return false }
        return voices.contains { $0.identifier == espeakVoice || $0.languageCodes.contains(espeakVoice) }
    }
}


extension Voice {
    /// The espeak language names this voice answers to (`en-us`, `en`).
    var languageCodes: [String] { [identifier, language] + (locale.map { [$0.description.lowercased()] } ?? []) }
}

/// Lists what eSpeak NG has installed, through the process's espeak thread.
public enum SynthesisInventoryProbe {
    /// Starts eSpeak NG if needed and lists its voices on the espeak thread.
    /// `genders` fills in voice genders espeak does not report.
    public static func probe(genders: VoiceGenderTable = VoiceGenderTable()) async throws -> SynthesisInventory {
        let (info, listed) = try await ESpeakHost.shared.run { engine in (engine.info(), engine.listVoices()) }
        let catalog = VoiceCatalog(listed: listed, registry: nil, genders: genders)
        return SynthesisInventory(version: info.version, dataPath: info.dataPath, voices: catalog.voices)
    }

    /// The installed voices with `registry`'s locales, for matching locales to voices without speaking.
    public static func catalog(registry: LocaleRegistry?, genders: VoiceGenderTable = VoiceGenderTable()) async throws -> VoiceCatalog {
        let listed = try await ESpeakHost.shared.run { engine in engine.listVoices() }
        return VoiceCatalog(listed: listed, registry: registry, genders: genders)
    }
}
