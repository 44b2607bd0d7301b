public import ParleyCore
import Foundation

/// Apertium's names for languages: ISO 639-3 codes (`eng`, `spa`, `sqi`), with a
/// variant after `_` for directions that have one (`spa-eng_US`).
///
/// The locale catalog's row decides where there is one (`en-US` → `eng` with
/// variant `US`); any other locale uses its language's row, and a language with no
/// row its ISO 639-3 code, so an installed pair serves locales nobody listed.
///
/// Apertium's modes and Debian's packages name a language with its ISO 639-1 or
/// ISO 639-3 code (`fr-es.mode`, `spa-cat.mode`): Parley compares codes in the
/// three-letter form (`normalized`) and shows them in the shortest (`short`).
public enum ApertiumLanguageCodes {
    /// The Apertium code and variant for `tag`.
    public static func code(for tag: LocaleTag, catalog: LocaleCatalog) -> (code: String, variant: String?) {
        if let info = catalog.info(for: tag) ?? catalog.info(for: tag.languageAndRegion) {
            return (info.apertiumCode, info.apertiumVariant)
        }
        if let info = catalog.locales(ofLanguage: tag.language).first { return (info.apertiumCode, nil) }
        return (threeLetterCode(tag.language), nil)
    }

    /// ISO 639-3 for a two-letter code (`sq` → `sqi`); a three-letter code is itself.
    public static func threeLetterCode(_ language: String) -> String {
        guard language.count == 2 else { return language.lowercased() }
        return Locale.LanguageCode(language.lowercased()).identifier(.alpha3) ?? language.lowercased()
    }

    /// The locale an Apertium code and variant translate into: the catalog's row with that
    /// code and variant (`eng`, `US` → en-US), a region variant on the code's row (`por`, `BR`
    /// → pt-BR), else the code's first row or its language (`isl` → is). Variants that are no
    /// region (`cat_valencia`, an orthography) are served by the code's locale. Two-letter
    /// codes (`es-fr`, as some pairs name their modes) count as their ISO 639-3 code.
    public static func locale(forCode code: String, variant: String?, catalog: LocaleCatalog) -> LocaleTag {
        let code = threeLetterCode(code)
        let rows = catalog.locales.filter { threeLetterCode($0.apertiumCode) == code }
        let region = variant.flatMap { LocaleTag("und-\($0)")?.region }
        if let variant, let row = rows.first(where: { $0.apertiumVariant == variant }) { return row.tag }
        let language = rows.first?.tag.language ?? Locale.LanguageCode(code).identifier(.alpha2) ?? code
        if let region { return LocaleTag(language: language, region: region) }
        return rows.first(where: { $0.apertiumVariant == nil })?.tag ?? rows.first?.tag ?? LocaleTag(language: language)
    }

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
