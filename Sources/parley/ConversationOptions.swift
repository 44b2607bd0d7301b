import ArgumentParser
import Dialogue
import Locales
import REPL

/// The options `parley dialog` and `parley room` share, and their checks: the data and audio
/// options, the recognizer, barge-in and simultaneous interpretation, the transcript, the end
/// of an utterance and the input history.
struct ConversationOptions: ParsableArguments {
    @OptionGroup var common: CommonOptions

    @OptionGroup var recognition: RecognitionChoiceOptions

    @OptionGroup var interpretation: InterpretationOptions

    @Option(help: ArgumentHelp("Write the transcript (JSON Lines, one object per turn or utterance) to this file.", valueName: "file"))
    var transcript: String?

    @Option(name: .customLong("endpoint-ms"), parsing: .unconditional,
            help: ArgumentHelp("Trailing silence that ends a spoken turn or utterance.", valueName: "ms"))
    var endpointMilliseconds = 500

    @Flag(name: .customLong("no-transcript"), help: "Write no transcript.")
    var noTranscript = false

    @Flag(name: .customLong("no-history"), help: "Keep no input history.")
    var noHistory = false

    func validate() throws {
        guard (50...10_000).contains(endpointMilliseconds) else {
            throw ValidationError("--endpoint-ms must be between 50 and 10000 milliseconds")
        }
        if noTranscript, transcript != nil {
            throw ValidationError("--transcript and --no-transcript cannot be used together")
        }
        try interpretation.validate(recognizer: recognition, common: common)
    }

    /// The transcript writer: none with `--no-transcript`; `--transcript FILE` must open (else
    /// the conversation does not start, in one sentence); the default file under the state
    /// directory may fail with a warning.
    func openTranscript(_ directories: DataDirectories) throws -> TranscriptWriter? {
        guard !noTranscript else { return nil }
        if let transcript {
            do {
                return try TranscriptWriter(path: transcript)
            } catch let refused as TranscriptError {
                throw StartRefused(description: refused.atStartDescription)
            }
        }
        do {
            return try TranscriptWriter(path: TranscriptWriter.defaultPath(stateDirectory: directories.state))
        } catch {
            printError("\(error); continuing without a transcript")
            return nil
        }
    }

    /// `openTranscript`; when it refuses, `shutdown` (of what the conversation opened) runs first.
    func openTranscript(_ directories: DataDirectories, shuttingDownOnRefusal shutdown: () async -> Void) async throws -> TranscriptWriter? {
        do {
            return try openTranscript(directories)
        } catch {
            await shutdown()
            throw error
        }
    }

    /// Leaves no default transcript that a conversation left empty: that file is Parley's own
    /// choice, where `--transcript FILE` is the person's.
    func keepTranscript(_ writer: TranscriptWriter?) {
        if transcript == nil { writer?.removeIfNothingWritten() }
    }

    /// How the REPL talks to the person, with the input history unless `--no-history`.
    func replOptions(_ directories: DataDirectories) -> ReplOptions {
        .detect(historyFile: noHistory ? nil : ReplOptions.historyPath(stateDirectory: directories.state))
    }
}
