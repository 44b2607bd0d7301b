import Audio
import ArgumentParser
import Foundation
import Logging
import Locales
import ParleyCore
import PocketSphinxRecognition
import Recognition
import WhisperRecognition

/// `parley listen`: speech to text, from a file or the microphone.
struct ListenCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "listen",
        abstract: "Recognize speech from an audio file or the microphone, one line per utterance.",
        discussion: """
            Whisper recognizes every language of its model and is used wherever it is installed \
            (make models); PocketSphinx serves en-US without it, and always serves --grammar. \
            --recognizer picks one. With --file, the file (WAV, FLAC, OGG… at any rate and channel \
            count; .raw is 16 kHz mono 16-bit) is split into utterances at pauses and each is \
            printed on its own line, like pocketsphinx_continuous. --json prints one object per utterance with \
            the text, confidence, alternatives and word times in seconds.

              parley listen --file question.wav
              parley listen --locale es --file pregunta.wav --phrases names.txt
              parley listen --file answer.wav --hint confirmation --json
              parley listen --file order.flac --grammar cards.gram --partial
            """)

    /// What a person expects to say, for `--hint`.
    enum Hint: String, ExpressibleByArgument, CaseIterable {
        case dictation, confirmation
    }

    @OptionGroup var common: CommonOptions

    @OptionGroup var recognition: RecognitionChoiceOptions

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

    @Option(name: .customLong("endpoint-ms"), parsing: .unconditional, help: ArgumentHelp("Trailing silence, in ms, that ends an utterance.", valueName: "ms"))
    var endpointMilliseconds = RecognitionOptions().endpointMilliseconds

    @Option(help: ArgumentHelp("From the microphone, stop after this many utterances (default: until Ctrl-C).", valueName: "n"))
    var utterances: Int?

    @Option(help: ArgumentHelp("Commit words while the speech goes on, by this policy, and print each clause as it ends (the recognition of `parley dialog --simultaneous`; Whisper only).",
                               valueName: "local-agreement|align-att"))
    var commit: CommitPolicyOption?

    func validate() throws {
        if let utterances, utterances < 1 { throw ValidationError("--utterances must be at least 1.") }
        if utterances != nil, file != nil { throw ValidationError("--utterances is for the microphone; a --file is recognized to its end.") }
        if hint != nil && grammar != nil { throw ValidationError("--hint and --grammar cannot be used together.") }
        if grammar != nil, recognition.recognizer == .whisper {
            throw ValidationError("--grammar is for PocketSphinx, which --recognizer whisper leaves out; give one or the other")
        }
        if endpointMilliseconds < 10 || endpointMilliseconds > 10_000 {
            throw ValidationError("--endpoint-ms must be between 10 and 10000 milliseconds")
        }
        if commit != nil, recognition.recognizer == .pocketsphinx || grammar != nil || hint == .confirmation {
            throw ValidationError("--commit needs Whisper dictation; PocketSphinx, a grammar and --hint confirmation decide at the endpoint only")
        }
        if commit != nil, recognition.recognizer == .wyoming {
            throw ValidationError("--commit needs word times as the speech goes on, which a Wyoming server does not give; it answers at the endpoint only")
        }
    }

    func run() async throws {
        try await reportingFailure {
            let registry = try common.localeRegistry()
            let directories = try common.directories()
            let recognizer = try makeRecognizerRouter(recognition, directories: directories, priorities: registry.priorities,
                                                      partialResults: partial || file == nil)
            let models = PocketSphinxModelRegistry(userDirectory: directories.models)
            let tag = try await resolveLocale(registry, models: models, recognizer: recognizer)
            let options = try options()
            // The header is checked before the model loads, and the file is read as it is recognized.
            let audio = try file.map { try AudioFileStream(path: $0) }
            try await prepare(recognizer, locale: tag, options: options, registry: registry, directories: directories)
            let printer = UtterancePrinter(json: json, partial: partial)
            guard let audio else {
                return try await listenLive(recognizer, locale: tag, printer: printer)
            }
            let results = try await recognizer.transcribe(audio, locale: tag, options: options, onEvent: printer.print)
            if results.isEmpty { throw RecognitionError.emptyRecognition }
        }
    }

    /// Recognizes from the microphone through the audio session until Ctrl-C, or
    /// until `--utterances` utterances have been printed.
    private func listenLive(_ recognizer: RecognizerRouter, locale: LocaleTag,
                            printer: UtterancePrinter) async throws {
        let session = try await common.openAudioSession(withoutServer: "--file")
        let options = try options()
        let limit = utterances
        let listening = Task {
            var heard = 0
            try await recognizer.recognizeLive(from: session, locale: locale, options: options) { event in
                try printer.print(event)
                if case .final = event { heard += 1 }
                return limit.map { heard < $0 } ?? true
            }
        }
        let interrupt: InterruptSignal
        do {
            interrupt = try InterruptSignal { listening.cancel() }
        } catch {
            listening.cancel()
            throw error
        }
        defer { interrupt.cancel() }
        // Announced once Ctrl-C is caught, so a Ctrl-C right after this line ends the listening cleanly.
        Logger(label: "parley.listen").info("listening for \(locale) speech on \(common.source ?? "the default source")")
        try await listening.value
        await session.close()
    }

    /// The locale to recognize: any BCP 47 tag or language name; a bare language goes
    /// through the recognition priority table (`en` → en-US), preferring an installed model.
    private func resolveLocale(_ registry: LocaleRegistry, models: PocketSphinxModelRegistry,
                               recognizer: RecognizerRouter) async throws -> LocaleTag {
        try registry.resolve(locale, for: .recognition) { models.model(for: $0) != nil }
    }

    /// Loads the model that will serve `locale` before any audio is read, and fails now,
    /// saying what is missing and what would serve it, when no recognizer serves it.
    private func prepare(_ recognizer: RecognizerRouter, locale: LocaleTag, options: RecognitionOptions,
                         registry: LocaleRegistry, directories: DataDirectories) async throws {
        switch await recognizer.engine(for: locale, hint: options.hint) {
        case .whisper?:
            try await recognizer.whisper!.start()
        case .pocketsphinx?:
            try await recognizer.pocketsphinx!.preload(locale, endpointMilliseconds: options.endpointMilliseconds)
        case .wyoming?:
            break  // it answered `describe` to say it serves the locale
        case nil:
            if let wyoming = recognizer.wyoming, grammar == nil {
                let languages = try await wyoming.describe().languages
                let listed = languages.count > 8 ? "\(languages.count) languages" : languages.isEmpty ? "none" : languages.joined(separator: ", ")
                throw StartRefused(description: "the Wyoming server \(wyoming.address) recognizes no \(locale.language) (its models list \(listed))")
            }
            if recognition.recognizer == .whisper, let whisper = recognizer.whisper { try await whisper.start() }
            if case .grammar = options.hint {
                let whisperServes = await recognizer.canServe(.whisper, locale)
                throw GrammarNeedsPocketSphinx(locale: locale, pocketSphinxLocales: PocketSphinxModelRegistry(userDirectory: directories.models).supportedLocales,
                                               whisperServes: whisperServes)
            }
            throw UnservedRecognition(locale: locale, registry: registry, installation: whisperInstallation(directories),
                                      models: PocketSphinxModelRegistry(userDirectory: directories.models),
                                      whisperExcluded: recognition.recognizer == .pocketsphinx)
        }
    }

    private func options() throws -> RecognitionOptions {
        var options = RecognitionOptions(endpointMilliseconds: endpointMilliseconds, commitPolicy: commit?.policy)
        if commit != nil { options.maximumDuration = RecognitionOptions.simultaneousMaximumDuration }
        if let grammar {
            guard let text = try? String(contentsOfFile: grammar, encoding: .utf8) else {
                throw GrammarFileUnreadable(path: grammar)
            }
            // PocketSphinx echoes a grammar it cannot parse to stdout, so what is plainly not JSGF stops here.
            guard text.drop(while: { $0.isWhitespace || $0 == "\u{FEFF}" }).hasPrefix("#JSGF") else {
                throw GrammarFileNotJSGF(path: grammar)
            }
            options.hint = .grammar(text)
        } else if hint == .confirmation {
            options.hint = .confirmation
        }
        return options
    }
}

/// `--commit` (listen) and `--commit-policy` (dialog): a `CommitPolicy` by its name.
struct CommitPolicyOption: ExpressibleByArgument {
    var policy: CommitPolicy

    init?(argument: String) {
        guard let policy = CommitPolicy(rawValue: argument) else { return nil }
        self.policy = policy
    }

    static var allValueStrings: [String] { CommitPolicy.allCases.map(\.rawValue) }
}

/// `--grammar` for a locale PocketSphinx has no model for: grammars are PocketSphinx's alone.
struct GrammarNeedsPocketSphinx: Error, CustomStringConvertible {
    var locale: LocaleTag
    var pocketSphinxLocales: [LocaleTag]
    var whisperServes: Bool

    var description: String {
        let has = pocketSphinxLocales.isEmpty ? "it has no model" : "it has \(pocketSphinxLocales.map(\.description).joined(separator: ", "))"
        return "a --grammar needs PocketSphinx, which has no model for \(locale) (\(has))"
            + (whisperServes ? "; without --grammar, Whisper hears \(locale)" : "; a PocketSphinx model for it can be added with `parley models add`")
    }
}

/// The `--grammar` file is missing or not text.
struct GrammarFileUnreadable: Error, CustomStringConvertible {
    var path: String
    var description: String { "cannot read the grammar file \(path); give a JSGF grammar saved as UTF-8 text" }
}

/// The `--grammar` file does not start with a `#JSGF` header.
struct GrammarFileNotJSGF: Error, CustomStringConvertible {
    var path: String
    var description: String { "\(path) is not a JSGF grammar: a grammar starts with a #JSGF header, e.g. #JSGF V1.0;" }
}
