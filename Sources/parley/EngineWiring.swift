import Dialogue
import Locales
import ParleyCore
import Translation

/// What `makeEngines` needs to build the engines of a conversation.
struct EngineRequest {
    /// The parsed command line (`--source`, `--sink`, `--server`, `--typed-only`, `--mute`).
    var command: DialogCommand
    /// Data, models and state directories.
    var directories: DataDirectories
    /// The locale tables.
    var registry: LocaleRegistry
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
/// The translator is connected; the audio session, the recognizer and the
/// synthesizer are not yet, so lines are typed and translations printed.
func makeEngines(_ request: EngineRequest) async -> DialogueEngines {
    let translator = makeTranslator(request)
    return DialogueEngines(
        translator: translator,
        limitations: ["the microphone and the speaker are not connected in this build: type each line; translations are printed"],
        shutdown: { await translator.shutdown() })
}

/// Apertium, one process per direction, started on the first sentence.
private func makeTranslator(_ request: EngineRequest) -> ApertiumTranslator {
    let packages = (try? ApertiumPackageIndex.load(from: request.directories.layered)) ?? ApertiumPackageIndex()
    return ApertiumTranslator(locales: request.registry.catalog, packages: packages)
}
