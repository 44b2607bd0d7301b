import ArgumentParser
import ESpeakTranscription
import Foundation
import Locales
import ParleyCore
import Pronunciation

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
        subcommands: [DictBuildTablesCommand.self])
}

/// The phoneme transcriber the dictionary commands use.
// After the synthesis module lands, this becomes its ESpeakSynthesizer.
var phonemeTranscriber: any PhonemeTranscriber { ESpeakPhonemeTranscriber.shared }
