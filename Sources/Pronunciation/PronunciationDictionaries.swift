public import Locales
public import ParleyCore
import Foundation

/// Where an entry comes from.
public enum DictionaryLayer: String, Sendable, Equatable {
    /// The read-only defaults shipped with Parley.
    case shipped
    /// The person's own dictionary, which overlays the shipped one.
    case user
}

/// An entry in force, with its layer and its eSpeak NG phonemes.
public struct ResolvedEntry: Sendable, Equatable {
    /// The entry as written.
    public var entry: DictionaryEntry
    /// Which dictionary it comes from.
    public var layer: DictionaryLayer
    /// Its mnemonics, converted and validated.
    public var mnemonics: String
}

/// One language's dictionary with the user's layer over the shipped one.
public struct LayeredDictionary: Sendable {
    /// The language code.
    public var language: String
    /// Entries in force: shipped ones first (minus those the user replaced or hid), then the user's.
    public var entries: [ResolvedEntry]
    /// Malformed lines and pronunciations that do not convert, with file and line; the rest loaded.
    public var problems: [DataFileError]

    /// The entry for `word`, case-insensitively.
    public func entry(for word: String) -> ResolvedEntry? {
        let key = DictionaryEntry.key(for: word)
        return entries.first { $0.entry.key == key }
    }
}

/// Overrides for the synthesizer, with what could not be loaded.
public struct LoadedOverrides: Sendable {
    /// language → word → mnemonics, for the synthesizer.
    public var overrides: PronunciationOverrides
    /// Lines that were skipped, with file and line.
    public var problems: [DataFileError]
}

/// The pronunciation dictionaries: `<language>.dict` in the shipped data
/// directory (read-only defaults) and in the user's directory (edits, which win).
///
/// Edits take an exclusive lock (`<language>.dict.lock`), re-read the user's
/// file, change it and save it atomically, so two editors never lose an entry
/// and a crash never leaves a half-written file.
public struct PronunciationDictionaries: Sendable {
    /// Where the layers live.
    public let directories: DataDirectories

    /// Creates the dictionaries for a set of data directories.
    public init(directories: DataDirectories) {
        self.directories = directories
    }

    /// The path of a language's dictionary in one layer.
    public func path(language: String, layer: DictionaryLayer) -> String {
        let directory = layer == .shipped ? directories.shipped : directories.user
        return (directory as NSString).appendingPathComponent("\(language).dict")
    }

    /// The language's converter (IPA table and normalization).
    public func converter(language: String) throws -> IPAConverter {
        try IPAConverter.load(language: language, from: directories)
    }

    /// Loads a language's layers; bad lines are reported in `problems`, the rest loads.
    public func load(language: String) throws -> LayeredDictionary {
        let converter = try converter(language: language)
        var problems = DataFile.directoryProblem(directories.user, consequence: "your own dictionaries there are not used").map { [$0] } ?? []
        var byKey: [String: ResolvedEntry] = [:]
        var order: [String] = []
        for layer in [DictionaryLayer.shipped, .user] {
            guard let document = try read(language: language, layer: layer) else { continue }
            problems += document.problems
            for entry in document.entries {
                if entry.hidesShipped {
                    byKey[entry.key] = nil
                    continue
                }
                do {
                    let mnemonics = try converter.mnemonics(for: entry.ipa, word: entry.word)
                    try converter.validate(mnemonics: mnemonics)
                    if byKey[entry.key] == nil { order.append(entry.key) }
                    byKey[entry.key] = ResolvedEntry(entry: entry, layer: layer, mnemonics: mnemonics)
                } catch {
                    problems.append(DataFileError(path: document.path, line: lineNumber(of: entry, in: document),
                                                  message: String(describing: error)))
                }
            }
        }
        return LayeredDictionary(language: language, entries: order.compactMap { byKey[$0] }, problems: problems)
    }

    /// The overrides the synthesizer applies, for each language that has an IPA table.
    public func overrides(for languages: [String]) -> LoadedOverrides {
        var entries: [String: [String: String]] = [:]
        var problems: [DataFileError] = []
        for language in Set(languages.map { $0.lowercased() }) {
            do {
                let dictionary = try load(language: language)
                entries[language] = Dictionary(dictionary.entries.map { ($0.entry.key, $0.mnemonics) }) { $1 }
                problems += dictionary.problems
            } catch {
                let hasDictionary = [DictionaryLayer.shipped, .user].contains {
                    FileManager.default.fileExists(atPath: path(language: language, layer: $0))
                }
                if hasDictionary { problems.append(DataFileError(path: path(language: language, layer: .user), line: 0, message: String(describing: error))) }
            }
        }
        return LoadedOverrides(overrides: PronunciationOverrides(entries), problems: problems)
    }

    /// The document of one layer, nil if the file does not exist.
    public func read(language: String, layer: DictionaryLayer) throws -> DictionaryDocument? {
        let file = path(language: language, layer: layer)
        guard FileManager.default.fileExists(atPath: file) else { return nil }
        return DictionaryDocument(parsing: try DataFile.read(file), path: file)
    }

    private func lineNumber(of entry: DictionaryEntry, in document: DictionaryDocument) -> Int {
        var number = 0
        for (index, line) in document.lines.enumerated() {
            if case let .entry(candidate) = line, candidate == entry { number = index + 1; break }
        }
        return number
    }
}
