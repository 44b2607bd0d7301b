import ArgumentParser
import Foundation
import Locales
import ParleyCore
import Pronunciation
import Synthesis

/// `parley dict`: the phonetic override dictionaries, one per language.
struct DictCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "dict",
        abstract: "Edit the pronunciation dictionaries: words and how to say them, in IPA.",
        discussion: """
            Each language has a dictionary of words and phrases with their pronunciation in IPA, \
            e.g. `parley dict add en tomato təˈmɑːtəʊ`. Shipped entries are defaults; your edits \
            go to the dictionary directory (--dictionaries, default in your XDG data directory) \
            and take precedence.
            """,
        subcommands: [DictListCommand.self, DictAddCommand.self, DictRemoveCommand.self, DictLookupCommand.self,
                      DictSayCommand.self, DictImportCommand.self, DictExportCommand.self, DictSymbolsCommand.self,
                      DictBuildTablesCommand.self])
}

/// The phoneme transcriber the dictionary commands use: the synthesizer, which
/// owns espeak's one thread.
let phonemeTranscriber: any PhonemeTranscriber = ESpeakSynthesizer()

/// The options every `dict` subcommand shares: the data directories and the language.
struct DictTarget: ParsableArguments {
    @OptionGroup var common: CommonOptions

    @Argument(help: "The dictionary's language, e.g. en or es.")
    var language: String

    /// The bare language code (`en-US` → `en`, `English` → `en`).
    var code: String {
        if let tag = LocaleTag(language) { return tag.language }
        return (try? common.localeRegistry().resolve(language).language) ?? language.lowercased()
    }

    /// A language given by name must be one the locale tables know; codes are taken as they are.
    func validate() throws {
        guard LocaleTag(language) == nil, let registry = try? common.localeRegistry() else { return }
        do {
            _ = try registry.resolve(language)
        } catch {
            throw ValidationError(String(describing: error))
        }
    }

    /// The dictionaries of the data directories given.
    func dictionaries() throws -> PronunciationDictionaries {
        PronunciationDictionaries(directories: try common.directories())
    }

    /// The espeak voice that speaks the language.
    func voice() throws -> String {
        try DictionaryVoices.voices(for: code, registry: common.localeRegistry())[0]
    }
}

/// Prints each problem found while loading as a warning on stderr.
func warn(_ problems: [DataFileError]) {
    for problem in problems { printError("warning: \(problem)") }
}

/// `parley dict list LANG [FILTER]`.
struct DictListCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "list", abstract: "List the entries in force, optionally those containing FILTER.")

    @OptionGroup var target: DictTarget

    @Argument(help: "Show only words containing this text (case-insensitive).")
    var filter: String?

    func run() async throws {
        try await reportingFailure {
            let dictionary = try target.dictionaries().load(language: target.code)
            warn(dictionary.problems)
            let table = TextTable(header: ["word", "ipa", "from"])
            for resolved in dictionary.entries where filter.map({ resolved.entry.key.contains($0.lowercased()) }) ?? true {
                table.add([resolved.entry.word, resolved.entry.ipa, resolved.layer.rawValue])
            }
            try StandardOutput.print(table.render(), terminator: "")
        }
    }
}

/// `parley dict add LANG WORD IPA`.
struct DictAddCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "add", abstract: "Add a word or phrase with its IPA pronunciation, or replace it.")

    @OptionGroup var target: DictTarget

    @Argument(help: "The word or phrase (quote a phrase).")
    var word: String

    @Argument(help: "Its pronunciation in IPA, e.g. təˈmɑːtəʊ.")
    var ipa: String

    func run() async throws {
        try await reportingFailure {
            let dictionaries = try target.dictionaries()
            let mnemonics = try dictionaries.add(word: word, ipa: ipa, language: target.code)
            try StandardOutput.print("\(word)\t\(ipa)\t[[\(mnemonics)]] → \(dictionaries.path(language: target.code, layer: .user))")
        }
    }
}

/// `parley dict remove LANG WORD`.
struct DictRemoveCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "remove", abstract: "Remove your entry for a word, or hide a shipped one.")

    @OptionGroup var target: DictTarget

    @Argument(help: "The word or phrase.")
    var word: String

    func run() async throws {
        try await reportingFailure {
            switch try target.dictionaries().remove(word: word, language: target.code) {
            case .removedUserEntry: try StandardOutput.print("removed '\(word)' from your \(target.code) dictionary")
            case .hidShippedEntry: try StandardOutput.print("'\(word)' is spoken by eSpeak NG's own rules again (the shipped entry is hidden)")
            }
        }
    }
}

/// `parley dict lookup LANG WORD`.
struct DictLookupCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "lookup", abstract: "Show how a word is pronounced now, in IPA.")

    @OptionGroup var target: DictTarget

    @Argument(help: "The word or phrase.")
    var word: String

    func run() async throws {
        try await reportingFailure {
            let lookup = PronunciationLookup(dictionaries: try target.dictionaries(), transcriber: phonemeTranscriber)
            let result = try await lookup.lookup(word, language: target.code, voice: try target.voice())
            try StandardOutput.print("\(word)\t\(result.current)")
            if let override = result.override {
                try StandardOutput.print("  \(override.layer.rawValue) dictionary: \(override.entry.ipa); eSpeak NG alone: \(result.espeakOwn)")
            }
        }
    }
}

/// `parley dict say LANG WORD`.
struct DictSayCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "say",
        abstract: "Speak a word as eSpeak NG says it on its own, then with its dictionary entry.",
        discussion: "Plays through the speaker (--sink, --server), or writes both to a WAV file with --out.")

    @OptionGroup var target: DictTarget

    @Argument(help: "The word or phrase.")
    var word: String

    @Option(help: ArgumentHelp("Write the preview to a WAV file instead of playing it.", valueName: "file.wav"))
    var out: String?

    func run() async throws {
        try await reportingFailure {
            let override = try target.dictionaries().load(language: target.code).entry(for: word)
            let output = try await SpeechOutput(file: out, common: target.common)
            if override == nil { printError("note: '\(word)' has no \(target.code) dictionary entry; it is spoken once, as eSpeak NG says it") }
            try await PronunciationPreview.play(word: word, mnemonics: override?.mnemonics, voice: .identifier(try target.voice()),
                                                synthesizer: ESpeakSynthesizer(), sink: output.sink)
            try await output.close()
        }
    }
}

/// `parley dict symbols LANG`.
struct DictSymbolsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "symbols", abstract: "List the IPA symbols the language's table converts.")

    @OptionGroup var target: DictTarget

    func run() async throws {
        try await reportingFailure {
            let table = TextTable(header: ["ipa", "espeak"])
            for row in try target.dictionaries().converter(language: target.code).table.rows {
                table.add([row.ipa, row.mnemonic])
            }
            try StandardOutput.print(table.render(), terminator: "")
        }
    }
}
