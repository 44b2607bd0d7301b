import ArgumentParser
import Foundation
import Locales
import Pronunciation

/// `parley dict import LANG FILE` and `parley dict import en --cmudict WORDLIST`.
struct DictImportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Import entries from a PLS file (.pls), a dictionary file, or the CMU dictionary.",
        discussion: "With --cmudict, FILE is a word list (one word per line) whose CMU pronunciations are imported.")

    @OptionGroup var target: DictTarget

    @Argument(help: "A .pls lexicon, a word<TAB>IPA file, or with --cmudict a word list.")
    var file: String

    @Flag(help: "Look the words of FILE up in the CMU pronouncing dictionary (English).")
    var cmudict = false

    @Option(help: ArgumentHelp("The CMU dictionary to read.", valueName: "path"))
    var cmudictPath = CMUDictionary.defaultPath

    func run() async throws {
        try await reportingFailure {
            let dictionaries = try target.dictionaries()
            let entries = try cmudict ? cmuEntries(dictionaries) : fileEntries()
            guard !entries.isEmpty else { throw NothingToImport(file: file, cmudict: cmudict) }
            try dictionaries.add(entries: entries, language: target.code)
            try StandardOutput.print("imported \(counted(entries.count, "entry", "entries")) into \(dictionaries.path(language: target.code, layer: .user))")
        }
    }

    private func fileEntries() throws -> [DictionaryEntry] {
        guard file.lowercased().hasSuffix(".pls") else {
            let document = DictionaryDocument(parsing: try DataFile.read(file), path: file)
            warn(document.problems)
            return document.entries
        }
        return try PLSLexicon.entries(readingFile: file)
    }

    private func cmuEntries(_ dictionaries: PronunciationDictionaries) throws -> [DictionaryEntry] {
        let list = try DataFile.read(file)
        try LineLengthLimit.check(list, path: file)
        let words = DataFile.rows(of: list).map { $0.fields[0] }
        let importer = CMUImport(cmu: try CMUDictionary.load(path: cmudictPath),
                                 arpabet: try ARPAbetTable.load(from: dictionaries.directories))
        let result = try importer.entries(for: words)
        if !result.missing.isEmpty {
            printError("not in the CMU dictionary, skipped: \(result.missing.joined(separator: ", "))")
        }
        return result.entries
    }
}

/// A dictionary import that found no entry: nothing was written.
struct NothingToImport: Error, CustomStringConvertible {
    var file: String
    var cmudict: Bool

    var description: String {
        cmudict ? "nothing imported: none of the words in \(file) is in the CMU dictionary"
            : "nothing imported: \(file) holds no entry (a word, a tab and its IPA pronunciation per line, or a PLS lexicon)"
    }
}

/// `parley dict export LANG FILE`.
struct DictExportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export", abstract: "Export the entries in force to a PLS file (.pls) or a word<TAB>IPA file.")

    @OptionGroup var target: DictTarget

    @Argument(help: "Where to write; a .pls name writes a W3C PLS 1.0 lexicon.")
    var file: String

    func run() async throws {
        try await reportingFailure {
            let dictionary = try target.dictionaries().load(language: target.code)
            warn(dictionary.problems)
            let entries = dictionary.entries.map(\.entry)
            let text = file.lowercased().hasSuffix(".pls")
                ? PLSLexicon.export(entries, language: target.code)
                : entries.map { "\($0.word)\t\($0.ipa)\n" }.joined()
            try AtomicFile.write(text, to: file)
            try StandardOutput.print("exported \(counted(entries.count, "entry", "entries")) to \(file)")
        }
    }
}
