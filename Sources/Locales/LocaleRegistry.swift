public import ParleyCore
import Foundation

/// Input that names no locale Parley knows, with the closest known names.
public struct UnknownLocaleError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What the person typed.
    public var input: String
    /// Close matches, best first.
    public var suggestions: [String]

    public var description: String {
        let hint = suggestions.isEmpty ? "" : "; did you mean \(suggestions.joined(separator: ", "))?"
        return "unknown locale '\(input)'\(hint) (`parley languages` lists them)"
    }
}

/// Locales as data: the catalog of named locales and the priority tables,
/// loaded from the shipped files and a user's overrides. The catalog is not a
/// limit: any BCP 47 tag of a known language resolves, and what serves it is
/// found from the installed engines.
public struct LocaleRegistry: Sendable {
    /// The known locales.
    public var catalog: LocaleCatalog
    /// Which locale serves a bare language, per engine.
    public var priorities: PriorityTable
    /// Names of every language and region, and which codes exist.
    public var names: LanguageNames

    /// Creates a registry from loaded data.
    public init(catalog: LocaleCatalog, priorities: PriorityTable, names: LanguageNames = LanguageNames()) {
        self.catalog = catalog
        self.priorities = priorities
        self.names = names
    }

    /// File names in a data directory.
    public static let catalogFileName = "locales.tsv"
    public static let priorityFileName = "locale-priority.tsv"

    /// Loads `locales.tsv` and `locale-priority.tsv` from each directory in
    /// `directories`, later ones overriding earlier ones. The first directory
    /// must hold both files; the others may hold either or neither.
    public static func load(from directories: [String]) throws -> LocaleRegistry {
        var catalog = LocaleCatalog([])
        var priorities = PriorityTable()
        for (index, directory) in directories.enumerated() {
            let catalogPath = (directory as NSString).appendingPathComponent(catalogFileName)
            let priorityPath = (directory as NSString).appendingPathComponent(priorityFileName)
            let required = index == 0
            if required || FileManager.default.fileExists(atPath: catalogPath) {
                catalog = catalog.merging(try LocaleCatalog(parsing: DataFile.read(catalogPath), path: catalogPath))
            }
            if required || FileManager.default.fileExists(atPath: priorityPath) {
                priorities = priorities.merging(try PriorityTable(parsing: DataFile.read(priorityPath), path: priorityPath))
            }
        }
        return LocaleRegistry(catalog: catalog, priorities: priorities)
    }

    /// Turns what a person typed into a locale. Any well-formed BCP 47 tag of a known
    /// language is accepted as it is (`sq-AL`, `pt-BR`, `hi`), and the engines match it to
    /// their closest voice, model or pair; a bare language with a row in `engine`'s
    /// priority table becomes the row's first candidate for which `isInstalled` holds
    /// (`es` speaks as es-ES), one with a catalog row its first locale (`gl` → gl-ES), and
    /// any other stays bare. Names work too, from the catalog (`español`, `British English`)
    /// and in English or the language itself for every language (`Albanian`, `shqip`).
    ///
    /// Throws `LocaleTagError` for input shaped like a tag that is not a usable one
    /// (`en_US`, `xx`, `en-QQ`, 300 characters), `UnknownLocaleError` for anything else.
    public func resolve(_ input: String, for engine: SpeechEngineKind = .recognition,
                        isInstalled: (LocaleTag) -> Bool = { _ in true }) throws -> LocaleTag {
        let text = input.trimmingCharacters(in: .whitespaces)
        if let tag = try tag(from: text) {
            if catalog.info(for: tag) != nil || !tag.isBareLanguage { return tag }
            return resolveLanguage(tag.language, engine: engine, isInstalled: isInstalled) ?? tag
        }
        if let named = catalog.locales.first(where: { $0.names.contains { Self.fold($0) == Self.fold(text) } }) {
            return resolve(named.tag.language, for: engine, isInstalled: isInstalled, preferring: named.tag)
        }
        if let code = names.language(named: text) {
            return resolveLanguage(code, engine: engine, isInstalled: isInstalled) ?? LocaleTag(language: code)
        }
        throw UnknownLocaleError(input: input, suggestions: suggestions(for: text))
    }

    /// The tag `text` spells; nil when `text` is not shaped like a tag (a name such as `English`).
    /// Throws saying what is wrong with a tag-shaped text that is not a usable tag.
    public func tag(from text: String) throws -> LocaleTag? {
        guard text.count <= LocaleTag.maximumLength else { throw LocaleTagError.tooLong(text.count) }
        guard Self.isTagShaped(text) else { return nil }
        guard let tag = LocaleTag(text) else { throw LocaleTagError.malformed(text) }
        if text.contains("_") { throw LocaleTagError.underscore(text, suggestion: tag.description) }
        guard isKnownLanguage(tag.language) else { throw LocaleTagError.unknownLanguage(text, code: tag.language) }
        if let region = tag.region, !names.isKnownRegion(region) {
            throw LocaleTagError.unknownRegion(text, code: region)
        }
        return tag
    }

    /// Whether `code` is a language of the catalog, of ISO 639, or of an engine here.
    public func isKnownLanguage(_ code: String) -> Bool {
        !catalog.locales(ofLanguage: code).isEmpty || names.isKnownLanguage(code)
    }

    /// The locale in words: the catalog's name, else the language's (`Albanian (Albania)`).
    public func displayName(of tag: LocaleTag) -> String {
        catalog.info(for: tag)?.displayName ?? names.name(of: tag)
    }

    /// ASCII letters, digits, `-` and `_` only, starting with a two- or three-letter subtag or
    /// holding a separator: `en`, `en_US`, `sq-AL`, `xx`, `en-USA`, but not `English` or `Klingon`.
    static func isTagShaped(_ text: String) -> Bool {
        guard !text.isEmpty, text.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") }) else {
            return false
        }
        let first = text.prefix { $0 != "-" && $0 != "_" }
        return first.count <= 3 || first.count < text.count
    }

    /// Up to three known tags or names closest to `text`.
    public func suggestions(for text: String) -> [String] {
        let folded = Self.fold(text)
        var scored: [(String, Int)] = []
        for info in catalog.locales {
            for candidate in [info.tag.description] + info.names {
                scored.append((candidate, Self.editDistance(folded, Self.fold(candidate))))
            }
            if Self.fold(info.tag.language) == folded.prefix(2) {
                scored.append((info.tag.description, 1))
            }
        }
        let limit = max(2, folded.count / 3)
        var seen = Set<String>()
        return scored.filter { $0.1 <= limit }
            .sorted { $0.1 != $1.1 ? $0.1 < $1.1 : $0.0 < $1.0 }
            .map(\.0).filter { seen.insert($0).inserted }
            .prefix(3).map { $0 }
    }

    private func resolveLanguage(_ language: String, engine: SpeechEngineKind,
                                 isInstalled: (LocaleTag) -> Bool) -> LocaleTag? {
        if let tag = priorities.resolve(LocaleTag(language: language), engine: engine, isInstalled: isInstalled) {
            return tag
        }
        return catalog.locales(ofLanguage: language).first?.tag
    }

    /// A name resolves to its own locale unless the priority table prefers an installed one.
    private func resolve(_ language: String, for engine: SpeechEngineKind,
                         isInstalled: (LocaleTag) -> Bool, preferring named: LocaleTag) -> LocaleTag {
        if isInstalled(named) { return named }
        return resolveLanguage(language, engine: engine, isInstalled: isInstalled) ?? named
    }

    /// Case- and accent-insensitive form for comparing names.
    static func fold(_ text: String) -> String {
        text.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil)
            .replacingOccurrences(of: "_", with: "-")
    }

    /// Levenshtein distance between two strings.
    static func editDistance(_ a: String, _ b: String) -> Int {
        ParleyCore.editDistance(Array(a), Array(b))
    }
}
