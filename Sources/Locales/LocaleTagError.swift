/// Input shaped like a locale tag that is not one Parley can use, in one sentence
/// that says what is wrong and what to type instead.
public enum LocaleTagError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Subtags joined with `_` (a POSIX locale name): BCP 47 joins them with `-`.
    case underscore(String, suggestion: String)
    /// Not a well-formed BCP 47 tag.
    case malformed(String)
    /// Longer than any language tag.
    case tooLong(Int)
    /// A well-formed tag whose language code no standard or engine knows.
    case unknownLanguage(String, code: String)
    /// A well-formed tag whose region code is not an ISO 3166 region or UN M.49 area.
    case unknownRegion(String, code: String)

    public var description: String {
        switch self {
        case let .underscore(input, suggestion):
            return "'\(input)' is not a BCP 47 language tag: subtags are joined with '-', not '_'; use \(suggestion)"
        case let .malformed(input):
            return "'\(input)' is not a BCP 47 language tag such as en-US, sq or pt-BR (`parley languages` lists the locales served here)"
        case let .tooLong(count):
            return "the locale is \(count) characters long, which no language tag is; give a tag such as en-US or sq-AL"
        case let .unknownLanguage(input, code):
            return "'\(input)' names no known language: '\(code)' is not an ISO 639 language code (`parley languages` lists the locales served here)"
        case let .unknownRegion(input, code):
            return "'\(input)' names no known region: '\(code)' is not an ISO 3166 region or UN M.49 area code such as US or 419"
        }
    }
}
