import Locales
import Foundation
import Pronunciation

/// The translation glossaries of a person's data directory, one file per
/// language pair (`glossary-en-es.tsv` for English into Spanish), beside the
/// pronunciation dictionaries and saved the same careful way: re-read,
/// changed and written atomically under an exclusive lock, so concurrent
/// editors never lose each other's entries and a crash never leaves half a file.
///
/// ```swift
/// let store = GlossaryStore(directory: directories.user)
/// try store.add([GlossaryEntry(kind: .term, source: "train station", target: "estación de tren")], from: "en", to: "es")
/// let document = try store.load(from: "en", to: "es")   // document.entries, document.problems
/// ```
public struct GlossaryStore: Sendable {
    /// The directory holding the glossary files.
    public let directory: String

    /// A store in `directory` (the user data directory: `--dictionaries`).
    public init(directory: String) {
        self.directory = directory
    }

    /// The file of the pair `source` → `target` (ISO 639-1 codes).
    public func path(from source: String, to target: String) -> String {
        (directory as NSString).appendingPathComponent("glossary-\(source)-\(target).tsv")
    }

    /// The pair's glossary; an empty document when it has no file yet. Malformed
    /// lines are in `problems` and the rest is loaded.
    public func load(from source: String, to target: String) throws -> GlossaryDocument {
        let file = path(from: source, to: target)
        guard FileManager.default.fileExists(atPath: file) || isSymlink(file) else {
            return GlossaryDocument(path: file, header: Self.header(from: source, to: target))
        }
        return GlossaryDocument(parsing: try DataFile.read(file), path: file)
    }

    /// Adds (or replaces) entries in one locked save: all of them, or none when the save fails.
    public func add(_ entries: [GlossaryEntry], from source: String, to target: String) throws {
        try edit(from: source, to: target) { $0.set(entries) }
    }

    /// Removes the entry of `kind` for `text`; throws when there is none (nothing is written).
    @discardableResult
    public func remove(_ text: String, kind: GlossaryEntry.Kind, from source: String, to target: String) throws -> GlossaryEntry {
        try edit(from: source, to: target) { document in
            guard let removed = document.remove(text, kind: kind) else {
                throw GlossaryError.notInGlossary(source: text, kind: kind, pair: "\(source)→\(target)")
            }
            return removed
        }
    }

    /// Changes the pair's file under its lock: re-read, change, save atomically.
    func edit<T>(from source: String, to target: String, _ change: (inout GlossaryDocument) throws -> T) throws -> T {
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        } catch {
            throw PronunciationError.fileFailure(path: directory, reason: "cannot be created")
        }
        let file = path(from: source, to: target)
        return try AtomicFile.withLock(file + ".lock") {
            var document = try load(from: source, to: target)
            let result = try change(&document)
            try AtomicFile.write(document.serialized(), to: file)
            return result
        }
    }

    private func isSymlink(_ path: String) -> Bool {
        (try? FileManager.default.destinationOfSymbolicLink(atPath: path)) != nil
    }

    static func header(from source: String, to target: String) -> [String] {
        ["Your \(source) → \(target) translation glossary: a kind, a tab, the \(source) text, a tab, its \(target) translation.",
         "term: translated this way wherever it appears; phrase: the whole sentence, translated this way instead of by Apertium.",
         "Edit with `parley glossary` or by hand."]
    }
}
