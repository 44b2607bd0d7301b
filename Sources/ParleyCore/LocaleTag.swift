/// A locale as the engines need it: a language and, usually, a region.
///
/// Written the BCP 47 way, `en-US`, `es-ES`, `es-419`. Parsing what a person
/// types (`en_us`, `English`, `español`) is the job of the Locales module;
/// this type only holds a well-formed tag.
public struct LocaleTag: Sendable, Hashable, Comparable, Codable, CustomStringConvertible {
    /// Lowercase ISO 639 language code, e.g. `en`.
    public let language: String
    /// Uppercase ISO 3166 region or a UN M.49 number, e.g. `US`, `419`; nil for a bare language.
    public let region: String?

    /// Creates a tag, normalizing case: `LocaleTag(language: "EN", region: "us")` is `en-US`.
    public init(language: String, region: String? = nil) {
        self.language = language.lowercased()
        self.region = region.map { $0.uppercased() }
    }

    /// Parses the canonical forms `en`, `en-US`, `en_US`, `es-419`; nil for anything else.
    public init?(_ text: String) {
        let parts = text.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "-" || $0 == "_" }).map(String.init)
        guard let language = parts.first,
              (2...3).contains(language.count), language.allSatisfy({ $0.isASCII && $0.isLetter })
        else { return nil }
        switch parts.count {
        case 1:
            self.init(language: language)
        case 2:
            let region = parts[1]
            let isAlpha = region.count == 2 && region.allSatisfy { $0.isASCII && $0.isLetter }
            let isNumeric = region.count == 3 && region.allSatisfy { $0.isASCII && $0.isNumber }
            guard isAlpha || isNumeric else { return nil }
            self.init(language: language, region: region)
        default:
            return nil
        }
    }

    /// The tag with the region dropped.
    public var languageOnly: LocaleTag { LocaleTag(language: language) }

    /// `en-US`, or `en` for a bare language.
    public var description: String { region.map { "\(language)-\($0)" } ?? language }

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
