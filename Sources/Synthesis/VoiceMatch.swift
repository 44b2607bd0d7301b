import ParleyCore

/// How closely one of a voice's language names serves a wanted locale; lower is closer.
///
/// eSpeak NG names what a voice speaks with tag-like names (`en-gb-scotland`,
/// `cmn-latn-pinyin`, `chr-US-Qaaa-x-west`) and other languages with a
/// priority (`es-419` also speaks `es-mx` and `es`). The closest voice for a
/// locale is the one whose name is the locale itself, then one of the same
/// language and region, then a voice of the bare language (`sq` for sq-AL, `vi`
/// for vi-VN rather than a regional dialect), then one of the same language
/// elsewhere (`fr-fr` for fr-CA); a script the locale names counts first
/// (`cmn-Latn` → `cmn-latn-pinyin`); ties go to espeak's
/// priority, then to the voice's own name before its other languages.
struct VoiceMatch: Comparable {
    /// 0 the same tag, 1 the same language and region, 2 the bare language, 3 the same region in a
    /// dialect the locale did not ask for (`vi-vn-x-central` for vi-VN), 4 the language elsewhere;
    /// 10 more when the locale names a script the voice does not have.
    var closeness: Int
    /// Whether the name is one of the voice's other languages rather than its own.
    var isOtherLanguage: Bool
    /// espeak's priority for the name.
    var priority: Int
    /// The voice's place in espeak's listing.
    var order: Int

    /// The match of `name` (priority `priority`) for `wanted`; nil when the languages differ.
    init?(wanted: LocaleTag, name: String, priority: Int, isOtherLanguage: Bool, order: Int) {
        let offered = Self.tag(fromVoiceName: name)
        guard offered.language == wanted.language else { return nil }
        let otherScript = wanted.script != nil && offered.script != wanted.script
        let extraVariants = !offered.variants.isEmpty && offered.variants != wanted.variants
        let level: Int
        if offered == wanted {
            level = 0
        } else if offered.region != nil, offered.region == wanted.region {
            level = extraVariants ? 3 : 1
        } else if offered.region == nil {
            level = extraVariants ? 4 : 2
        } else {
            level = 4
        }
        closeness = (otherScript ? 10 : 0) + level
        self.isOtherLanguage = isOtherLanguage
        self.priority = priority
        self.order = order
    }

    static func < (lhs: VoiceMatch, rhs: VoiceMatch) -> Bool {
        (lhs.closeness, lhs.isOtherLanguage ? 1 : 0, lhs.priority, lhs.order)
            < (rhs.closeness, rhs.isOtherLanguage ? 1 : 0, rhs.priority, rhs.order)
    }

    /// An espeak language name read as a locale, leniently: `en-gb-x-rp` → en-GB-x-rp,
    /// `chr-US-Qaaa-x-west` → chr-US-x-west (a private-use script is dropped), `piqd` → piqd.
    static func tag(fromVoiceName name: String) -> LocaleTag {
        let parts = name.split(separator: "-").map(String.init)
        var script: String?, region: String?, rest: [String] = []
        for part in parts.dropFirst() {
            if script == nil, region == nil, rest.isEmpty, part.count == 4, part.allSatisfy(\.isLetter) {
                script = part
            } else if region == nil, rest.isEmpty, part.count == 2 || (part.count == 3 && part.allSatisfy(\.isNumber)) {
                region = part
            } else if !(part.count == 4 && part.lowercased().hasPrefix("qa")) {
                rest.append(part)
            }
        }
        return LocaleTag(language: parts.first ?? name, script: script, region: region, variants: rest)
    }
}
