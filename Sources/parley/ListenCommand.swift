import ArgumentParser
import Foundation
import Locales
import ParleyCore
import Recognition

/// `parley listen`: speech to text, from a file or the microphone.
struct ListenCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "listen",
        abstract: "Recognize speech from an audio file or the microphone, one line per utterance.",
        discussion: """
            With --file, the file (WAV, FLAC, OGG… at any rate and channel count; .raw is \
            16 kHz mono 16-bit) is split into utterances at pauses and each is printed on its \
            own line, like pocketsphinx_continuous. --json prints one object per utterance with \
            the text, confidence, alternatives and word times in seconds.

              parley listen --file question.wav
              parley listen --file answer.wav --hint confirmation --json
              parley listen --file order.flac --grammar cards.gram --partial
            """)

    /// What a person expects to say, for `--hint`.
    enum Hint: String, ExpressibleByArgument, CaseIterable {
        case dictation, confirmation
    }

    @OptionGroup var common: CommonOptions

    @Option(help: ArgumentHelp("Locale to recognize, e.g. en-US or en.", valueName: "locale"))
    var locale = "en-US"

    @Option(help: ArgumentHelp("Audio file to recognize instead of the microphone.", valueName: "path"))
    var file: String?

    @Option(help: "What is expected: dictation (free speech) or confirmation (yes/no).")
    var hint: Hint?

    @Option(help: ArgumentHelp("JSGF grammar file describing what may be said.", valueName: "file.gram"))
    var grammar: String?

    @Flag(help: "Also print partial results while an utterance is spoken.")
    var partial = false

    @Flag(help: "Print one JSON object per utterance.")
    var json = false

    @Option(name: .customLong("endpoint-ms"), help: ArgumentHelp("Trailing silence, in ms, that ends an utterance.", valueName: "ms"))
    var endpointMilliseconds = RecognitionOptions().endpointMilliseconds

    func validate() throws {
        if hint != nil && grammar != nil { throw ValidationError("--hint and --grammar cannot be used together.") }
        if endpointMilliseconds < 10 || endpointMilliseconds > 10_000 {
            throw ValidationError("--endpoint-ms must be between 10 and 10000.")
        }
    }

    func run() async throws {
        try await reportingFailure {
            let registry = try common.localeRegistry()
            let models = ModelRegistry(userDirectory: try common.directories().models)
            let recognizer = PocketSphinxRecognizer(models: models, priorities: registry.priorities)
            let tag = try registry.resolve(locale, for: .recognition) { models.model(for: $0) != nil }
            guard let file else { throw MicrophoneUnavailable() }
            let printer = UtterancePrinter(json: json, partial: partial)
            let results = try await recognizer.transcribeFile(file, locale: tag, options: try options(), onEvent: printer.print)
            if results.isEmpty { throw RecognitionError.emptyRecognition }
        }
    }

    private func options() throws -> RecognitionOptions {
        var options = RecognitionOptions(endpointMilliseconds: endpointMilliseconds)
        if let grammar {
            guard let text = try? String(contentsOfFile: grammar, encoding: .utf8) else {
                throw GrammarFileUnreadable(path: grammar)
            }
            options.hint = .grammar(text)
        } else if hint == .confirmation {
            options.hint = .confirmation
        }
        return options
    }
}

/// The `--grammar` file is missing or not text.
struct GrammarFileUnreadable: Error, CustomStringConvertible {
    var path: String
    var description: String { "cannot read the grammar file \(path); give a JSGF grammar saved as UTF-8 text" }
}

/// Live listening needs the audio session, which this command does not open yet.
struct MicrophoneUnavailable: Error, CustomStringConvertible {
    var description: String {
        "listening from the microphone is not available in `parley listen` yet; give an audio file with --file PATH"
    }
}
