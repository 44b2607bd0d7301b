import ArgumentParser
import Foundation
import Locales
import ParleyCore
import Translation

/// `parley glossary`: translation glossaries and the phrasebook, one per language pair.
struct GlossaryCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "glossary",
        abstract: "Fix how terms and whole phrases are translated, per language pair.",
        discussion: """
            A term ("train station" → "estación de tren") is translated that way wherever it \
            appears; the rest of the sentence stays Apertium's. A phrase (--phrase) is a whole \
            sentence whose translation is given instead of Apertium's, whatever its case, spacing \
            and end punctuation. The glossary of en → es is `glossary-en-es.tsv` in the \
            dictionary directory (--dictionaries), used by `parley translate` and `parley dialog`.
            """,
        subcommands: [GlossaryListCommand.self, GlossaryAddCommand.self, GlossaryRemoveCommand.self,
                      GlossaryLookupCommand.self, GlossaryImportCommand.self, GlossaryExportCommand.self])
}

/// The options every `glossary` subcommand shares: the data directories and the language pair.
struct GlossaryPair: ParsableArguments {
    @OptionGroup var common: CommonOptions

    @Argument(help: ArgumentHelp("The language translated from: en, en-US, English…", valueName: "from"))
    var from: String

    @Argument(help: ArgumentHelp("The language translated into.", valueName: "to"))
    var to: String

    /// The pair's language codes, checked: both locales known and an Apertium direction installed
    /// between them; a pair translated only through another language is refused saying so.
    func languages() throws -> (source: String, target: String) {
        let directories = try common.directories()
        let registry = try LocaleRegistry.load(from: directories.layered)
        let source = try registry.resolve(from, for: .recognition), target = try registry.resolve(to, for: .synthesis)
        let packages = try ApertiumPackageIndex.load(from: directories.layered)
        let translator = ApertiumTranslator(locales: registry.catalog, packages: packages)
        do {
            _ = try translator.direction(from: source, to: target)
        } catch {
            guard let route = try? translator.route(from: source, to: target), !route.isDirect else { throw error }
            let through = route.pivots.map(ApertiumLanguageCodes.englishName).joined(separator: " and then ")
            throw GlossaryError.pivotedPair(pair: "\(source.language) → \(target.language)", route: through)
        }
        return (source.language, target.language)
    }

    /// The glossaries of the data directory.
    func store() throws -> GlossaryStore {
        GlossaryStore(directory: try common.directories().user)
    }
}

/// `parley glossary list FROM TO [FILTER]`.
struct GlossaryListCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "list", abstract: "List the pair's terms and phrases, optionally those containing FILTER.")

    @OptionGroup var pair: GlossaryPair

    @Argument(help: "Show only entries whose source or translation contains this text (case-insensitive).")
    var filter: String?

    func run() async throws {
        try await reportingFailure {
            let (source, target) = try pair.languages()
            let document = try pair.store().load(from: source, to: target)
            warn(document.problems)
            let table = TextTable(header: ["kind", "source", "target"])
            let needle = filter?.lowercased()
            for entry in document.entries
            where needle.map({ entry.source.lowercased().contains($0) || entry.target.lowercased().contains($0) }) ?? true {
                table.add([entry.kind.rawValue, entry.source, entry.target])
            }
            try StandardOutput.print(table.render(), terminator: "")
        }
    }
}

/// `parley glossary add FROM TO SOURCE TARGET [--phrase]`.
struct GlossaryAddCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "add", abstract: "Add a term (or, with --phrase, a whole phrase) with its translation, or replace it.")

    @OptionGroup var pair: GlossaryPair

    @Argument(help: "The text to translate (quote several words).")
    var source: String

    @Argument(help: "Its translation, exactly as it must appear.")
    var target: String

    @Flag(help: "A whole sentence, translated this way instead of by Apertium.")
    var phrase = false

    func run() async throws {
        try await reportingFailure {
            let (from, to) = try pair.languages()
            let entry = try GlossaryEntry.checked(kind: phrase ? .phrase : .term, source: source, target: target)
            let store = try pair.store()
            try store.add([entry], from: from, to: to)
            try StandardOutput.print("\(entry.kind.rawValue)\t\(entry.source)\t\(entry.target) → \(store.path(from: from, to: to))")
        }
    }
}

/// `parley glossary remove FROM TO SOURCE [--phrase]`.
struct GlossaryRemoveCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "remove", abstract: "Remove a term (or, with --phrase, a phrase).")

    @OptionGroup var pair: GlossaryPair

    @Argument(help: "The source text of the entry.")
    var source: String

    @Flag(help: "Remove the phrase, not the term.")
    var phrase = false

    func run() async throws {
        try await reportingFailure {
            let (from, to) = try pair.languages()
            let removed = try pair.store().remove(source, kind: phrase ? .phrase : .term, from: from, to: to)
            try StandardOutput.print("removed the \(removed.kind.rawValue) '\(removed.source)' from your \(from) → \(to) glossary")
        }
    }
}

/// `parley glossary lookup FROM TO TEXT`.
struct GlossaryLookupCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "lookup", abstract: "Show which entries apply to a text: its phrase, or the terms in it.")

    @OptionGroup var pair: GlossaryPair

    @Argument(help: "A term, or a sentence to check.")
    var text: [String]

    func run() async throws {
        try await reportingFailure {
            let (from, to) = try pair.languages()
            let document = try pair.store().load(from: from, to: to)
            warn(document.problems)
            let matcher = GlossaryMatcher(entries: document.entries)
            let sentence = text.joined(separator: " ")
            let found = matcher.phrase(for: sentence).map { [$0] } ?? matcher.terms(in: sentence).map(\.entry)
            guard !found.isEmpty else { return try StandardOutput.print("no entry of your \(from) → \(to) glossary applies to '\(sentence)'") }
            for entry in found { try StandardOutput.print("\(entry.kind.rawValue)\t\(entry.source)\t\(entry.target)") }
        }
    }
}
