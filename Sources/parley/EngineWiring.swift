import Dialogue
import Locales
import ParleyCore

/// What `makeEngines` needs to build the engines of a conversation.
struct EngineRequest {
    /// The parsed command line (`--source`, `--sink`, `--server`, `--typed-only`, `--mute`).
    var command: DialogCommand
    /// Data, models and state directories.
    var directories: DataDirectories
    /// The locales of sides A and B.
    var locales: [LocaleTag]
}

// MARK: - Wiring point for the engines

/// Builds the engines the dialogue runs on.
///
/// This is the one place the concrete engines meet the dialogue: open the
/// audio session (one source and sink for the whole conversation, unless
/// `--typed-only`; a missing server becomes a limitation, not a failure), load
/// the recognizer for the models directory, start the translator and the
/// synthesizer, and return them in `DialogueEngines`. Anything that cannot
/// start is left out with a one-sentence limitation; the dialogue goes on
/// without it.
///
/// The speech, audio and translation modules are not connected here yet, so
/// the dialogue runs typed-only and says that translation is unavailable.
func makeEngines(_ request: EngineRequest) async -> DialogueEngines {
    DialogueEngines(limitations: [
        "the speech and translation engines are not connected in this build: lines are typed, and translation is unavailable",
    ])
}
