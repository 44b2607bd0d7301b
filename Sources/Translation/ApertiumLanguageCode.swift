import Foundation

/// Apertium names languages with ISO 639-1 or ISO 639-3 codes (`fr-es.mode`,
/// `spa-cat.mode`); Parley compares them in one form, the three-letter one,
/// and shows them in the shortest (`es`, then `spa` where a language has no
/// two-letter code).
public enum ApertiumLanguageCode {
    /// The ISO 639-3 code for `code` (`fr` → `fra`, `spa` → `spa`); `code` itself when ICU does not know it.
    public static func normalized(_ code: String) -> String {
        Locale.Language(identifier: code).languageCode?.identifier(.alpha3) ?? code
    }

    /// The shortest code for `code` (`spa` → `es`); `code` itself when it has no two-letter form.
    public static func short(_ code: String) -> String {
        Locale.Language(identifier: code).languageCode?.identifier(.alpha2) ?? code
    }

    /// Both forms of a code, as Debian's package names may use either (`["es", "spa"]`).
    public static func forms(_ code: String) -> Set<String> {
        [normalized(code), short(code)]
    }

    /// The language's English name (`spa` → `Spanish`), or the code when ICU has none.
    public static func englishName(_ code: String) -> String {
        Locale(identifier: "en").localizedString(forLanguageCode: short(code)) ?? code
    }
}
