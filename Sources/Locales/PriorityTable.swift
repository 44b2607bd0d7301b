public import ParleyCore
import Foundation

/// The engine a priority table serves.
public enum SpeechEngineKind: String, Sendable, Hashable, CaseIterable {
    case recognition, synthesis
}

/// Which locale serves a bare language, per engine: `en` recognizes as en-US,
/// `es` speaks as es-ES. Read from `locale-priority.tsv`.
public struct PriorityTable: Sendable, Equatable {
    /// engine → language → candidate locales, best first.
    public private(set) var candidates: [SpeechEngineKind: [String: [LocaleTag]]]

    /// Creates a table from known rows.
    public init(_ candidates: [SpeechEngineKind: [String: [LocaleTag]]] = [:]) {
        self.candidates = candidates
    }

    /// Parses the text of a `locale-priority.tsv` file; `path` names it in errors. A line
    /// longer than `DataFile.maximumLineBytes` is an error, as in every table.
    public init(parsing text: String, path: String) throws {
        candidates = [:]
        for row in try DataFile.rows(of: text, path: path) {
            let (engine, language, locales) = try Self.parse(row, path: path)
            candidates[engine, default: [:]][language] = locales
        }
    }

    /// The table with `overlay`'s rows replacing rows for the same engine and language.
    public func merging(_ overlay: PriorityTable) -> PriorityTable {
        var merged = self
        for (engine, languages) in overlay.candidates {
            merged.candidates[engine, default: [:]].merge(languages) { _, new in new }
        }
        return merged
    }

    /// Candidate locales for `language` in `engine`, best first; empty when the table has none.
    public func candidates(for language: String, engine: SpeechEngineKind) -> [LocaleTag] {
        candidates[engine]?[language.lowercased()] ?? []
    }

    /// The locale that serves `tag` for `engine`: a tag with a region is itself; a bare
    /// language is its first candidate that `isInstalled`, else its first candidate,
    /// else nil when the table does not list the language.
    public func resolve(_ tag: LocaleTag, engine: SpeechEngineKind,
                        isInstalled: (LocaleTag) -> Bool = { _ in true }) -> LocaleTag? {
        guard tag.region == nil else { return tag }
        let list = candidates(for: tag.language, engine: engine)
        return list.first(where: isInstalled) ?? list.first
    }

    private static func parse(_ row: DataFileRow, path: String) throws -> (SpeechEngineKind, String, [LocaleTag]) {
        func fail(_ message: String) -> DataFileError {
            DataFileError(path: path, line: row.line, message: message)
        }
        guard row.fields.count == 3 else {
            throw fail("expected 3 tab-separated fields (engine, language, locales), found \(row.fields.count)")
        }
        guard let engine = SpeechEngineKind(rawValue: row.fields[0]) else {
            throw fail("unknown engine '\(row.fields[0])'; use recognition or synthesis")
        }
        guard let language = LocaleTag(row.fields[1]), language.region == nil else {
            throw fail("'\(row.fields[1])' is not a bare language code such as en")
        }
        var locales: [LocaleTag] = []
        for item in row.fields[2].split(separator: ",") {
            let text = item.trimmingCharacters(in: .whitespaces)
            guard let tag = LocaleTag(text), tag.region != nil else {
                throw fail("'\(text)' is not a locale tag of the form language-REGION")
            }
            guard tag.language == language.language else {
                throw fail("\(tag) is not a locale of language '\(language.language)'")
            }
            locales.append(tag)
        }
        guard !locales.isEmpty else { throw fail("no locales listed for '\(language.language)'") }
        return (engine, language.language, locales)
    }
}
