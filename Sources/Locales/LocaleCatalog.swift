public import ParleyCore
import Foundation

/// What Parley knows about one locale: the names people type for it and what
/// each engine calls it.
public struct LocaleInfo: Sendable, Hashable {
    /// The locale.
    public var tag: LocaleTag
    /// Names a person may type, English first (e.g. `Spanish`, `español`).
    public var names: [String]
    /// eSpeak NG voice identifier; nil where espeak has no voice.
    public var espeakVoice: String?
    /// Apertium language code, e.g. `spa`.
    public var apertiumCode: String
    /// Apertium variant for directions that have one (`US` in `spa-eng_US`).
    public var apertiumVariant: String?

    /// The English name, or the tag when there is none.
    public var displayName: String { names.first ?? tag.description }

    /// A locale's row.
    public init(tag: LocaleTag, names: [String], espeakVoice: String?, apertiumCode: String, apertiumVariant: String?) {
        (self.tag, self.names, self.espeakVoice) = (tag, names, espeakVoice)
        (self.apertiumCode, self.apertiumVariant) = (apertiumCode, apertiumVariant)
    }
}

/// The locales Parley knows, read from `locales.tsv`.
public struct LocaleCatalog: Sendable {
    /// Every known locale, in file order.
    public private(set) var locales: [LocaleInfo]

    /// Creates a catalog from known rows.
    public init(_ locales: [LocaleInfo]) {
        self.locales = locales
    }

    /// Parses the text of a `locales.tsv` file; `path` names it in errors. A line longer
    /// than `DataFile.maximumLineBytes` is an error, as in every table.
    public init(parsing text: String, path: String) throws {
        locales = try DataFile.rows(of: text, path: path).map { try Self.parse($0, path: path) }
    }

    /// The catalog with `overlay`'s rows added, replacing rows with the same tag.
    public func merging(_ overlay: LocaleCatalog) -> LocaleCatalog {
        let replaced = Set(overlay.locales.map(\.tag))
        return LocaleCatalog(locales.filter { !replaced.contains($0.tag) } + overlay.locales)
    }

    /// The entry for `tag`, if known.
    public func info(for tag: LocaleTag) -> LocaleInfo? {
        locales.first { $0.tag == tag }
    }

    /// Locales of one language, in file order.
    public func locales(ofLanguage language: String) -> [LocaleInfo] {
        locales.filter { $0.tag.language == language.lowercased() }
    }

    private static func parse(_ row: DataFileRow, path: String) throws -> LocaleInfo {
        func fail(_ message: String) -> DataFileError {
            DataFileError(path: path, line: row.line, message: message)
        }
        guard row.fields.count == 4 else {
            throw fail("expected 4 tab-separated fields (tag, names, espeak, apertium), found \(row.fields.count)")
        }
        guard let tag = LocaleTag(row.fields[0]), tag.region != nil else {
            throw fail("'\(row.fields[0])' is not a locale tag of the form language-REGION")
        }
        let names = row.fields[1].split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        let espeak = row.fields[2] == "-" || row.fields[2].isEmpty ? nil : row.fields[2]
        let apertium = row.fields[3].split(separator: "_", maxSplits: 1).map(String.init)
        guard let code = apertium.first, (2...3).contains(code.count) else {
            throw fail("'\(row.fields[3])' is not an Apertium code such as spa or eng_US")
        }
        return LocaleInfo(tag: tag, names: names.filter { !$0.isEmpty }, espeakVoice: espeak,
                          apertiumCode: code, apertiumVariant: apertium.count > 1 ? apertium[1] : nil)
    }
}
