import ArgumentParser
import Foundation
import Locales
import ParleyCore
import Pronunciation

/// `parley dict build-tables`: derives the IPA tables from the installed eSpeak NG.
struct DictBuildTablesCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "build-tables",
        abstract: "Derive ipa-<language>.tsv from the installed eSpeak NG and report the round trip.",
        shouldDisplay: false)

    @OptionGroup var common: CommonOptions

    @Argument(help: "Languages to derive tables for.")
    var languages: [String] = ["en", "es"]

    @Option(help: ArgumentHelp("Directory to write the tables to (default: the shipped data directory).", valueName: "dir"))
    var output: String?

    func run() async throws {
        try await reportingFailure {
            let directories = try common.directories()
            let registry = try LocaleRegistry.load(from: directories.layered)
            for language in languages {
                try await build(language: language, directories: directories, registry: registry)
            }
        }
    }

    private func build(language: String, directories: DataDirectories, registry: LocaleRegistry) async throws {
        let voices = try DictionaryVoices.voices(for: language, registry: registry)
        let words = try TableWords.all(language: language, directories: directories)
        let derivation = Array(TableWords.derivation(words).prefix(15_000))
        let builder = SymbolTableBuilder(transcriber: phonemeTranscriber)
        let primary = try await builder.observe(words: derivation, voice: voices[0])
        var others: [(voice: String, observations: SymbolObservations)] = []
        for voice in voices.dropFirst() {
            others.append((voice, try await builder.observe(words: Array(derivation.prefix(5_000)), voice: voice)))
        }
        let table = try await builder.table(language: language, primary: (voices[0], primary), others: others)
        let path = ((output ?? directories.shipped) as NSString).appendingPathComponent(IPASymbolTable.fileName(for: language))
        try table.serialized(header: header(language: language, voices: voices, observations: primary))
            .write(toFile: path, atomically: true, encoding: .utf8)
        try StandardOutput.print("\(language): \(table.rows.count) symbols from \(primary.wordsPaired) words (\(primary.wordsSkipped) skipped) → \(path)")
        try await reportRoundTrip(language: language, words: words, table: table, voice: voices[0], directories: directories)
    }

    private func reportRoundTrip(language: String, words: [String], table: IPASymbolTable, voice: String,
                                 directories: DataDirectories) async throws {
        let converter = IPAConverter(table: table, normalization: try IPANormalization.load(language: language, from: directories))
        let heldOut = Array(TableWords.heldOut(words).prefix(language == "en" ? 2_000 : 500))
        let report = try await RoundTripReport.measure(words: heldOut, converter: converter, voice: voice,
                                                       transcriber: phonemeTranscriber)
        try StandardOutput.print("\(language): round trip \(report.exact)/\(report.total) exact on held-out words")
        for mismatch in report.mismatches.prefix(20) {
            try StandardOutput.print("  \(mismatch.word): \(mismatch.original) → \(mismatch.returned)")
        }
    }

    private func header(language: String, voices: [String], observations: SymbolObservations) -> [String] {
        ["IPA → eSpeak NG phoneme mnemonics for '\(language)', derived from the installed eSpeak NG",
         "(voice \(voices[0]); symbols only \(voices.dropFirst().joined(separator: ", ")) wrote are kept when \(voices[0]) says them alike)",
         "by `parley dict build-tables \(language)` from \(observations.wordsPaired) words. Regenerate rather than edit.",
         "",
         "Columns (tab-separated): IPA as espeak writes it, mnemonic, times seen, voice."]
    }
}
