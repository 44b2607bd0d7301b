/// A locale as the engines need it: a language and, usually, a region.
///
/// Written the BCP 47 way, `en-US`, `es-ES`, `es-419`, `sr-Latn-RS`. Any
/// well-formed BCP 47 tag parses: the language, script and region are kept
/// apart, and the variants, extensions and private-use subtags that follow
/// (`en-GB-scotland`, `vi-VN-x-central`) are kept as one lowercase tail.
/// Checking what a person types (`en_US`, `English`, an unknown language) is
/// the job of the Locales module; this type only holds a well-formed tag.
public struct LocaleTag: Sendable, Hashable, Comparable, Codable, CustomStringConvertible {
    /// Lowercase ISO 639 language code, e.g. `en`.
    public let language: String
    /// Title-case ISO 15924 script, e.g. `Latn`; nil when the tag names none.
    public let script: String?
    /// Uppercase ISO 3166 region or a UN M.49 number, e.g. `US`, `419`; nil for a bare language.
    public let region: String?
    /// Variant, extension and private-use subtags, lowercase, in order (`["scotland"]`, `["x", "rp"]`).
    public let variants: [String]

    /// Creates a tag, normalizing case: `LocaleTag(language: "EN", region: "us")` is `en-US`.
    public init(language: String, script: String? = nil, region: String? = nil, variants: [String] = []) {
        self.language = language.lowercased()
        self.script = script.map { $0.prefix(1).uppercased() + $0.dropFirst().lowercased() }
        self.region = region.map { $0.uppercased() }
        self.variants = variants.map { $0.lowercased() }
    }

    /// Parses a well-formed BCP 47 tag (`en`, `en-US`, `es-419`, `zh-Hans-CN`, `en-GB-x-rp`), also
    /// with `_` between subtags as data files and POSIX locales write them; nil for anything else.
    public init?(_ text: String) {
        guard text.utf8.count <= Self.maximumLength else { return nil }
        let parts = text.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "-" || $0 == "_" }).map(String.init)
        guard let syntax = LocaleTagSyntax(parts) else { return nil }
        self.init(language: syntax.language, script: syntax.script, region: syntax.region, variants: syntax.rest)
    }

    /// The longest text parsed as a tag; BCP 47 tags in use are far shorter.
    public static let maximumLength = 64

    /// The tag with everything after the language dropped.
    public var languageOnly: LocaleTag { LocaleTag(language: language) }

    /// Whether the tag is a language alone, with no script, region or variant (`sq`).
    public var isBareLanguage: Bool { script == nil && region == nil && variants.isEmpty }

    /// The language and region only (`en-GB-scotland` → `en-GB`, `sr-Latn-RS` → `sr-RS`).
    public var languageAndRegion: LocaleTag { LocaleTag(language: language, region: region) }

    /// `en-US`, `sr-Latn-RS`, or `en` for a bare language.
    public var description: String {
        ([language] + [script, region].compactMap { $0 } + variants).joined(separator: "-")
    }

    public static func < (lhs: LocaleTag, rhs: LocaleTag) -> Bool { lhs.description < rhs.description }

    public init(from decoder: any Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        guard let tag = LocaleTag(text) else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath,
                                                    debugDescription: "'\(text)' is not a locale tag"))
        }
        self = tag
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }
}
