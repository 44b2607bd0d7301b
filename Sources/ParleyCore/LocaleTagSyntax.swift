/// The subtags of a well-formed BCP 47 language tag (RFC 5646 §2.1), split
/// apart: `language [-script] [-region] *(-variant) *(-extension) [-privateuse]`.
///
/// Primary language subtags of two or three letters are accepted (five to
/// eight letters are reserved for registration and none is registered);
/// extended language subtags (`zh-yue`) are not, so `en-USA` is refused.
struct LocaleTagSyntax {
    var language: String
    var script: String?
    var region: String?
    /// Variants, extensions and private use, lowercase.
    var rest: [String]

    /// Splits `parts` (the subtags, in order); nil when they do not form a well-formed tag.
    init?(_ parts: [String]) {
        guard let first = parts.first, (2...3).contains(first.count), Self.isAlpha(first) else { return nil }
        language = first
        var index = 1
        if index < parts.count, parts[index].count == 4, Self.isAlpha(parts[index]) {
            script = parts[index]
            index += 1
        }
        if index < parts.count, Self.isRegion(parts[index]) {
            region = parts[index]
            index += 1
        }
        rest = []
        while index < parts.count, Self.isVariant(parts[index]) {
            rest.append(parts[index].lowercased())
            index += 1
        }
        guard let tail = Self.extensions(Array(parts[index...])) else { return nil }
        rest += tail
    }

    /// Extensions (`u-ca-gregory`) then private use (`x-west`); nil when malformed.
    private static func extensions(_ parts: [String]) -> [String]? {
        var result: [String] = []
        var index = 0
        while index < parts.count {
            let singleton = parts[index].lowercased()
            guard singleton.count == 1, isAlphanumeric(singleton) else { return nil }
            let length = singleton == "x" ? 1...8 : 2...8
            var next = index + 1
            while next < parts.count, length.contains(parts[next].count), isAlphanumeric(parts[next]),
                  singleton == "x" || parts[next].count > 1 {
                next += 1
            }
            guard next > index + 1 else { return nil }
            result += parts[index..<next].map { $0.lowercased() }
            if singleton == "x" { return next == parts.count ? result : nil }
            index = next
        }
        return result
    }

    /// Two letters (ISO 3166) or three digits (UN M.49).
    static func isRegion(_ text: String) -> Bool {
        (text.count == 2 && isAlpha(text)) || (text.count == 3 && text.allSatisfy { $0.isASCII && $0.isNumber })
    }

    /// Five to eight letters or digits, or a digit and three more.
    static func isVariant(_ text: String) -> Bool {
        guard isAlphanumeric(text) else { return false }
        return (5...8).contains(text.count) || (text.count == 4 && text.first!.isNumber)
    }

    static func isAlpha(_ text: String) -> Bool { !text.isEmpty && text.allSatisfy { $0.isASCII && $0.isLetter } }

    static func isAlphanumeric(_ text: String) -> Bool {
        !text.isEmpty && text.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber) }
    }
}
