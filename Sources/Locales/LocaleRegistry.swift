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

/// Locales as data: the catalog of known locales and the priority tables,
/// loaded from the shipped files and a user's overrides.
public struct LocaleRegistry: Sendable {
    /// The known locales.
    public var catalog: LocaleCatalog
    /// Which locale serves a bare language, per engine.
    public var priorities: PriorityTable

    /// Creates a registry from loaded data.
    public init(catalog: LocaleCatalog, priorities: PriorityTable) {
        self.catalog = catalog
        self.priorities = priorities
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

    /// Turns what a person typed — `en`, `en-US`, `en_us`, `English`, `español`,
    /// `es-419` — into a known locale. A bare language goes through `engine`'s
    /// priority table, preferring candidates for which `isInstalled` holds.
    public func resolve(_ input: String, for engine: SpeechEngineKind = .recognition,
                        isInstalled: (LocaleTag) -> Bool = { _ in true }) throws -> LocaleTag {
        let text = input.trimmingCharacters(in: .whitespaces)
        if let tag = LocaleTag(text) {
            if tag.region != nil, catalog.info(for: tag) != nil { return tag }
            if tag.region == nil, let resolved = resolveLanguage(tag.language, engine: engine, isInstalled: isInstalled) {
                return resolved
            }
        }
        if let named = catalog.locales.first(where: { $0.names.contains { Self.fold($0) == Self.fold(text) } }) {
            return resolve(named.tag.language, for: engine, isInstalled: isInstalled, preferring: named.tag)
        }
        throw UnknownLocaleError(input: input, suggestions: suggestions(for: text))
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
