public import ParleyCore
import CESpeakNG
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

/// eSpeak NG could not be initialized.
public struct SynthesisUnavailable: Error, Sendable, CustomStringConvertible {
    /// What failed.
    public var reason: String

    public var description: String {
        "eSpeak NG is not usable (\(reason)); install espeak-ng-data and libespeak-ng1"
    }
}

extension Voice {
    /// The espeak language names this voice answers to (`en-us`, `en`).
    var languageCodes: [String] { [language] + (locale.map { [$0.description.lowercased()] } ?? []) }
}

/// Lists what eSpeak NG has installed.
///
/// eSpeak NG keeps all its state in globals: call this only from the thread
/// that owns espeak in this process (a command that runs it once at start-up).
public enum SynthesisInventoryProbe {
    /// Initializes eSpeak NG (synchronous output) and lists its voices.
    public static func probe() throws -> SynthesisInventory {
        espeak_ng_InitializePath(nil)
        let status = espeak_ng_Initialize(nil)
        guard status == ENS_OK else { throw SynthesisUnavailable(reason: "espeak_ng_Initialize returned \(status.rawValue)") }
        _ = espeak_ng_InitializeOutput(ENOUTPUT_MODE_SYNCHRONOUS, 0, nil)
        var pathPointer: UnsafePointer<CChar>?
        let version = espeak_Info(&pathPointer).map { String(cString: $0) } ?? "unknown"
        let dataPath = pathPointer.map { String(cString: $0) } ?? ""
        return SynthesisInventory(version: version, dataPath: dataPath, voices: listVoices())
    }

    /// Every voice in espeak's table, from `espeak_ListVoices(NULL)`.
    static func listVoices() -> [Voice] {
        guard var cursor = espeak_ListVoices(nil) else { return [] }
        var voices: [Voice] = []
        while let entry = cursor.pointee {
            voices.append(voice(from: entry.pointee))
            cursor += 1
        }
        return voices
    }

    /// The voice's first (highest priority) language, read from espeak's
    /// packed `languages` field: a priority byte, then a NUL-terminated name.
    static func voice(from entry: espeak_VOICE) -> Voice {
        let language = entry.languages.map { String(cString: $0 + 1) } ?? ""
        let identifier = language.isEmpty ? (entry.identifier.map { String(cString: $0) } ?? "") : language
        let name = entry.name.map { String(cString: $0).replacingOccurrences(of: "_", with: " ") } ?? identifier
        let tag = LocaleTag(language)
        let gender: VoiceGender = entry.gender == 1 ? .male : entry.gender == 2 ? .female : .unspecified
        return Voice(identifier: identifier, name: name, language: tag?.language ?? language,
                     locale: tag?.region == nil ? nil : tag, gender: gender)
    }
}
