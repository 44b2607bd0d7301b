import ArgumentParser
import Foundation
import Locales
import Pronunciation
import Translation

/// The file formats glossaries are imported from and exported to.
enum GlossaryFormat: String, ExpressibleByArgument, CaseIterable {
    case csv, tbx

    /// The format `--format` names, or the one the file's extension names.
    static func of(_ path: String, explicit: GlossaryFormat?) throws -> GlossaryFormat {
        if let explicit { return explicit }
        switch (path as NSString).pathExtension.lowercased() {
        case "csv": return .csv
        case "tbx", "xml": return .tbx
        default: throw GlossaryError.unknownFormat(path: path)
        }
    }
}

/// `parley glossary import FROM TO FILE`.
struct GlossaryImportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Add the entries of a CSV or TBX file, all in one save.",
        discussion: "CSV: source,target[,kind] per line (kind: term or phrase), an optional header. TBX: a termEntry per entry with both languages. A malformed entry is named by its line and nothing is imported; a file over 8 MiB, or holding a NUL byte, is refused before it is read. A row repeating an earlier entry is skipped and counted.")

    @OptionGroup var pair: GlossaryPair

    @Argument(help: "The file to import (.csv or .tbx).")
    var file: String

    @Option(help: "The file's format (default: from its extension).")
    var format: GlossaryFormat?

    func run() async throws {
        try await reportingFailure {
            let (from, to) = try pair.languages()
            let (entries, duplicates) = GlossaryDocument.withoutDuplicates(try read(from: from, to: to))
            try pair.store().add(entries, from: from, to: to)
            let skipped = duplicates == 0 ? "" : " (\(counted(duplicates, "duplicate", "duplicates")) of an earlier entry skipped)"
            try StandardOutput.print("imported \(counted(entries.count, "entry", "entries")) into your \(from) → \(to) glossary\(skipped)")
        }
    }

    /// The file's entries, in file order, duplicates included; its size is checked before it is read.
    private func read(from: String, to: String) throws -> [GlossaryEntry] {
        let format = try GlossaryFormat.of(file, explicit: format)
        let text = try GlossaryLimits.importText(of: file)
        switch format {
        case .csv: return try GlossaryCSV.entries(parsing: text, path: file)
        case .tbx: return try GlossaryTBX.entries(parsing: Data(text.utf8), path: file, from: from, to: to)
        }
    }
}

/// `parley glossary export FROM TO [FILE]`.
struct GlossaryExportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "export", abstract: "Write the pair's entries as CSV or TBX, to a file or standard output.")

    @OptionGroup var pair: GlossaryPair

    @Argument(help: "The file to write (default: standard output).")
    var file: String?

    @Option(help: "The format (default: from the file's extension; csv on standard output).")
    var format: GlossaryFormat?

    func run() async throws {
        try await reportingFailure {
            let (from, to) = try pair.languages()
            let store = try pair.store()
            if let file, file != "-", store.isGlossaryFile(file, from: from, to: to) {
                throw GlossaryError.exportOntoGlossary(path: file, pair: "\(from) → \(to)")
            }
            let document = try store.load(from: from, to: to)
            warn(document.problems)
            let chosen = try file.map { try GlossaryFormat.of($0, explicit: format) } ?? format ?? .csv
            let text = chosen == .csv ? GlossaryCSV.export(document.entries)
                                      : GlossaryTBX.export(document.entries, from: from, to: to)
            guard let file, file != "-" else { return try StandardOutput.write(Data(text.utf8)) }
            try AtomicFile.write(text, to: file)
            try StandardOutput.print("exported \(counted(document.entries.count, "entry", "entries")) to \(file)")
        }
    }
}
