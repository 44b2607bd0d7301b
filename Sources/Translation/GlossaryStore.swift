import Locales
import Foundation
#if canImport(Glibc)
import Glibc
#endif

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
    /// lines are in `problems` and the rest is loaded. A file over
    /// `GlossaryLimits.maximumGlossaryBytes` is refused before it is read.
    public func load(from source: String, to target: String) throws -> GlossaryDocument {
        try load(from: source, to: target, limit: GlossaryLimits.maximumGlossaryBytes)
    }

    private func load(from source: String, to target: String, limit: Int?) throws -> GlossaryDocument {
        let file = path(from: source, to: target)
        guard FileManager.default.fileExists(atPath: file) || isSymlink(file) else {
            return GlossaryDocument(path: file, header: Self.header(from: source, to: target))
        }
        let text = try GlossaryLimits.text(of: file, limit: limit, what: "a glossary (\(GlossaryLimits.glossaryCapacity); each translation reads it whole first)")
        return GlossaryDocument(parsing: text, path: file)
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

    /// Changes the pair's file under its lock: re-read, change, save atomically. A change
    /// that would make the file grow past `GlossaryLimits.maximumGlossaryBytes` is refused
    /// and nothing is written; one that shrinks an oversized file is saved.
    func edit<T>(from source: String, to target: String, _ change: (inout GlossaryDocument) throws -> T) throws -> T {
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        } catch {
            throw FileWriteError.failure(path: directory, reason: "cannot be created")
        }
        let file = path(from: source, to: target)
        return try AtomicFile.withLock(file + ".lock") {
            var document = try load(from: source, to: target, limit: nil)
            let before = document.serialized().utf8.count
            let result = try change(&document)
            let text = document.serialized()
            if text.utf8.count > GlossaryLimits.maximumGlossaryBytes, text.utf8.count > before {
                throw GlossaryError.glossaryTooLarge(path: file, bytes: text.utf8.count)
            }
            try AtomicFile.write(text, to: file)
            return result
        }
    }

    /// Whether writing `other` would write the pair's glossary file: the same inode
    /// (a hard link), or the same path once symbolic links and `..` are resolved.
    public func isGlossaryFile(_ other: String, from source: String, to target: String) -> Bool {
        let file = path(from: source, to: target)
        var mine = stat(), theirs = stat()
        if stat(file, &mine) == 0, stat(other, &theirs) == 0, mine.st_dev == theirs.st_dev, mine.st_ino == theirs.st_ino {
            return true
        }
        return Self.resolved(file) == Self.resolved(other)
    }

    /// `path` with its symbolic links resolved; for a file that does not exist, its directory's.
    private static func resolved(_ path: String) -> String {
        let absolute = URL(fileURLWithPath: path).standardizedFileURL
        if let real = realpath(absolute.path, nil) { defer { free(real) }; return String(cString: real) }
        let directory = absolute.deletingLastPathComponent().path
        guard let real = realpath(directory, nil) else { return absolute.path }
        defer { free(real) }
        return (String(cString: real) as NSString).appendingPathComponent(absolute.lastPathComponent)
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
