public import ParleyCore
import Foundation

/// Names of languages and regions, and which language codes exist, from the
/// ISO 639 and ISO 3166 data that Foundation carries (ICU's CLDR), plus the
/// languages the installed engines add (eSpeak NG speaks Quenya, `qya`, which
/// ISO lists but CLDR does not name).
public struct LanguageNames: Sendable {
    /// Languages the engines add: code → English name.
    public var extraLanguages: [String: String]

    /// Creates the names, with `extraLanguages` (code → name) from the engines.
    public init(extraLanguages: [String: String] = [:]) {
        self.extraLanguages = extraLanguages
    }

    private static let english = Locale(identifier: "en")

    /// Whether `code` is an ISO 639 language (or one an engine here speaks).
    public func isKnownLanguage(_ code: String) -> Bool {
        let code = code.lowercased()
        return extraLanguages[code] != nil || Locale.LanguageCode(code).isISOLanguage
            || Self.english.localizedString(forLanguageCode: code) != nil
    }

    /// Whether `code` is an ISO 3166 region or a UN M.49 area (`US`, `419`).
    public func isKnownRegion(_ code: String) -> Bool {
        Locale.Region(code.uppercased()).isISORegion
    }

    /// The language's English name (`sq` → Albanian); nil when it has none.
    public func languageName(_ code: String) -> String? {
        let code = code.lowercased()
        return Self.english.localizedString(forLanguageCode: code) ?? extraLanguages[code]
    }

    /// The tag in words: `Albanian`, `Portuguese (Brazil)`, `English (United Kingdom, scotland)`.
    public func name(of tag: LocaleTag) -> String {
        let language = languageName(tag.language) ?? tag.language
        let details = [tag.script.flatMap { Self.english.localizedString(forScriptCode: $0) } ?? tag.script,
                       tag.region.flatMap { Self.english.localizedString(forRegionCode: $0) } ?? tag.region]
            .compactMap { $0 } + tag.variants.filter { $0 != "x" }
        return details.isEmpty ? language : "\(language) (\(details.joined(separator: ", ")))"
    }

    /// The language a person named (`Albanian`, `shqip`, `hindi`), in English or in the language
    /// itself, ignoring case and accents; nil when no language has that name.
    public func language(named name: String) -> String? {
        let folded = LocaleRegistry.fold(name)
        guard folded.count >= 3 else { return nil }
        if let code = extraLanguages.first(where: { LocaleRegistry.fold($0.value) == folded })?.key { return code }
        let codes = Locale.LanguageCode.isoLanguageCodes.map(\.identifier)
        if let code = codes.first(where: { Self.english.localizedString(forLanguageCode: $0).map(LocaleRegistry.fold) == folded }) {
            return code
        }
        return codes.first { Locale(identifier: $0).localizedString(forLanguageCode: $0).map(LocaleRegistry.fold) == folded }
    }
}
