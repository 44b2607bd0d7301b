import ArgumentParser
import Foundation
import Locales
import ParleyCore
import Synthesis

/// `parley voices`: the installed eSpeak NG voices.
struct VoicesCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "voices",
        abstract: "List the installed voices with their language, locale and gender.",
        discussion: """
            Every eSpeak NG language voice. The identifier is what `parley say --voice` takes; \
            add a variant for another voice quality or gender (en-us+f3). The locale is the one \
            Parley speaks with the voice (es speaks es-ES). Genders come from eSpeak NG, or from \
            voice-genders.tsv where it reports none.

            Examples:
              parley voices --language es
              parley voices --json
            """)

    @OptionGroup var common: CommonOptions

    @Option(help: ArgumentHelp("Only voices of this language (es, Spanish, pt-BR).", valueName: "language"))
    var language: String?

    @Flag(help: "Print a JSON array of voices instead of a table.")
    var json = false

    func run() async throws {
        try await reportingFailure {
            let directories = try common.directories()
            let synthesizer = try ESpeakSynthesizer(dataDirectories: directories.layered)
            let catalog = try await synthesizer.catalog()
            let voices = try language.map { catalog.voices(speaking: try languageCode($0, directories)) } ?? catalog.voices
            if let language, voices.isEmpty {
                throw ValidationError("no installed voice speaks '\(language)'; `parley voices` lists them all")
            }
            json ? try printJSON(voices) : try printTable(voices)
        }
    }

    /// `es`, `pt-BR` or a name such as `Spanish`, as a language code.
    private func languageCode(_ input: String, _ directories: DataDirectories) throws -> String {
        if let tag = LocaleTag(input) { return tag.language }
        return try LocaleRegistry.load(from: directories.layered).resolve(input, for: .synthesis).language
    }

    private func printJSON(_ voices: [Voice]) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        try StandardOutput.print(String(decoding: try encoder.encode(voices), as: UTF8.self))
    }

    private func printTable(_ voices: [Voice]) throws {
        let table = TextTable(header: ["identifier", "name", "language", "locale", "gender"])
        for voice in voices {
            table.add([voice.identifier, voice.name, voice.language, voice.locale?.description ?? "-", voice.gender.rawValue])
        }
        try StandardOutput.print(table.render(), terminator: "")
    }
}
