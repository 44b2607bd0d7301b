public import ParleyCore
import Locales
import Foundation

/// A voice chosen for an utterance: the name espeak selects it by, and how Parley describes it.
public struct ResolvedVoice: Sendable, Hashable {
    /// What `espeak_ng_SetVoiceByName` gets: the voice file, with a gender variant when one was
    /// asked for (`roa/es+f3`). Language names such as `en-gb` are not always accepted there.
    public var espeakName: String
    /// The voice as reported in `.started`: gender is the one it speaks with.
    public var voice: Voice
}

/// The installed voices with Parley's locales and genders, and the rules that pick one.
public struct VoiceCatalog: Sendable {
    /// Every installed language voice, in espeak's order.
    public let voices: [Voice]
    /// The installed variants (`f3`, `m3`, `klatt`…), which a `+` after an identifier adds.
    public let variants: [String]
    private let entries: [Entry]
    private let registry: LocaleRegistry?
    private let genders: VoiceGenderTable

    /// One voice with what selection needs besides the public description.
    struct Entry: Sendable {
        var voice: Voice
        var file: String
        var languageNames: [String]
        var priorities: [Int]
    }

    /// Builds the catalog from espeak's listing, the locale catalog (which locale a
    /// region-less voice such as `es` serves) and the gender table.
    init(listed: [ListedVoice], variants: [String] = [], registry: LocaleRegistry?, genders: VoiceGenderTable) {
        self.variants = variants
        self.registry = registry
        self.genders = genders
        entries = listed.filter { !$0.languages.isEmpty && $0.languages.first != "variant" }.map { listed in
            let identifier = listed.languages[0]
            let tag = Self.tag(from: identifier)
            let locale = tag?.region != nil ? tag
                : registry?.catalog.locales.first { $0.espeakVoice?.lowercased() == identifier.lowercased() }?.tag
            let gender = Self.gender(of: listed, genders)
            let language = tag?.language ?? String(identifier.split(separator: "-").first ?? "")
            let voice = Voice(identifier: identifier, name: listed.name, language: language, locale: locale, gender: gender)
            return Entry(voice: voice, file: listed.file, languageNames: listed.languages, priorities: listed.priorities)
        }
        voices = entries.map(\.voice)
    }

    /// A row of our table for the voice's own language wins; then espeak's report (which
    /// says male for every voice file without a gender line); then the table's `*` row.
    private static func gender(of listed: ListedVoice, _ genders: VoiceGenderTable) -> VoiceGender {
        if let specific = genders.specificGender(ofLanguage: listed.languages) { return specific }
        switch listed.gender {
        case 1: return .male
        case 2: return .female
        default: return genders.nativeGender(ofLanguage: listed.languages)
        }
    }

    /// The voices that speak `language` (a code such as `es`), in espeak's order.
    public func voices(speaking language: String) -> [Voice] {
        let code = language.lowercased()
        return voices.filter { $0.language == code || $0.locale?.language == code }
    }

    /// Picks the voice for a selection, or fails with the closest names.
    public func resolve(_ selection: VoiceSelection) throws -> ResolvedVoice {
        switch selection {
        case let .identifier(name):
            return try resolve(identifier: name)
        case let .locale(tag, gender):
            return applying(gender, to: try entry(for: tag))
        }
    }

    /// A voice by espeak language name (`en-us`) or file (`roa/es`), with an optional `+variant`.
    func resolve(identifier name: String) throws -> ResolvedVoice {
        let parts = name.split(separator: "+", maxSplits: 1).map(String.init)
        guard let base = parts.first, let entry = entry(named: base) else {
            throw SynthesisError.unknownVoice(name, suggestions: suggestions(for: name))
        }
        guard parts.count == 2 else { return ResolvedVoice(espeakName: entry.file, voice: entry.voice) }
        guard variants.contains(parts[1]) else {
            let close = variants.filter { Self.editDistance($0.lowercased(), parts[1].lowercased()) <= 1 }
            throw SynthesisError.unknownVoice(name, suggestions: close.sorted().prefix(5).map { "\(base)+\($0)" })
        }
        var voice = entry.voice
        voice.gender = VoiceGender.allCases.first {
            genders.variant(for: $0, ofLanguage: entry.languageNames) == parts[1]
        } ?? voice.gender
        return ResolvedVoice(espeakName: "\(entry.file)+\(parts[1])", voice: voice)
    }

    /// The entry whose language name or file is `name`, ignoring case.
    func entry(named name: String) -> Entry? {
        let lowered = name.lowercased()
        return entries.first { $0.voice.identifier.lowercased() == lowered }
            ?? entries.first { $0.file.lowercased() == lowered }
    }

    /// The voice for a locale: a bare language goes through the synthesis priority table
    /// (`es` → `es-ES`), the locale catalog may name the espeak voice (`es-ES` → `es`), and
    /// otherwise the closest installed voice serves it (`sq-AL` → `sq`, `pt-BR` → `pt-br`, `zh` → `cmn`).
    private func entry(for tag: LocaleTag) throws -> Entry {
        let locale = tag.isBareLanguage
            ? registry?.priorities.resolve(tag, engine: .synthesis, isInstalled: { hasVoice(for: $0) }) ?? tag : tag
        if let found = voiceEntry(for: locale) ?? voiceEntry(for: tag) { return found }
        let sameLanguage = voices(speaking: tag.language).map { $0.locale?.description ?? $0.identifier }
        throw SynthesisError.noVoiceForLocale(locale.description, suggestions: Array(sameLanguage.prefix(5)))
    }

    /// Each voice's identifier with the locale its own language name reads as
    /// (`en-gb-scotland` → en-GB-scotland, `sq` → sq), in espeak's order.
    public var spokenLocales: [(identifier: String, locale: LocaleTag, name: String)] {
        entries.map { ($0.voice.identifier, VoiceMatch.tag(fromVoiceName: $0.voice.identifier), $0.voice.name) }
    }

    /// Whether some voice speaks `locale` or its language.
    public func hasVoice(for locale: LocaleTag) -> Bool { voiceEntry(for: locale) != nil }

    /// The identifier of the voice that speaks `locale` (`sq` for sq-AL); nil when none speaks its language.
    public func voiceIdentifier(for locale: LocaleTag) -> String? {
        (try? entry(for: locale))?.voice.identifier
    }

    private func voiceEntry(for locale: LocaleTag) -> Entry? {
        if let name = registry?.catalog.info(for: locale)?.espeakVoice, let found = entry(named: name) { return found }
        return closestEntry(to: locale)
    }

    /// The entry whose language names come closest to `locale`; nil when none speaks its language.
    private func closestEntry(to locale: LocaleTag) -> Entry? {
        var best: (VoiceMatch, Entry)?
        for (order, entry) in entries.enumerated() {
            for (index, name) in entry.languageNames.enumerated() {
                let priority = index < entry.priorities.count ? entry.priorities[index] : 5
                guard let match = VoiceMatch(wanted: locale, name: name, priority: priority,
                                             isOtherLanguage: index > 0, order: order) else { continue }
                if best == nil || match < best!.0 { best = (match, entry) }
            }
        }
        return best?.1
    }

    /// Adds the gender variant when the voice does not already speak with `gender`.
    private func applying(_ gender: VoiceGender, to entry: Entry) -> ResolvedVoice {
        guard gender != .unspecified, gender != entry.voice.gender,
              let variant = genders.variant(for: gender, ofLanguage: entry.languageNames) else {
            return ResolvedVoice(espeakName: entry.file, voice: entry.voice)
        }
        var voice = entry.voice
        voice.gender = gender
        return ResolvedVoice(espeakName: "\(entry.file)+\(variant)", voice: voice)
    }

    /// Up to five identifiers closest to `name`: same prefix first, then by edit distance.
    func suggestions(for name: String) -> [String] {
        let base = String(name.lowercased().split(separator: "+").first ?? "")
        let scored = entries.map { entry -> (String, Int) in
            let candidates = [entry.voice.identifier, entry.file, entry.voice.name].map { $0.lowercased() }
            let distance = candidates.map { Self.editDistance(base, $0) }.min() ?? .max
            let prefix = candidates.contains { $0.hasPrefix(base) || base.hasPrefix($0) } && !base.isEmpty
            return (entry.voice.identifier, prefix ? 0 : distance)
        }
        let limit = max(2, base.count / 2)
        return scored.filter { $0.1 <= limit }.sorted { $0.1 != $1.1 ? $0.1 < $1.1 : $0.0 < $1.0 }
            .prefix(5).map(\.0)
    }

    /// `en-us` → en-US, `es` → es; nil for names that are not locale tags (`en-gb-x-rp` keeps `en-GB`).
    static func tag(from espeakName: String) -> LocaleTag? {
        let parts = espeakName.split(separator: "-").prefix(2).joined(separator: "-")
        return LocaleTag(parts) ?? LocaleTag(String(espeakName.split(separator: "-").first ?? ""))
    }

    /// Levenshtein distance.
    static func editDistance(_ a: String, _ b: String) -> Int {
        ParleyCore.editDistance(Array(a), Array(b))
    }
}
