import Audio
import Dialogue
import Locales
import Logging
import ParleyCore
import Recognition
import Synthesis
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
/// This is the one place the concrete engines meet the dialogue: the audio
/// session (one source and sink for the whole conversation, unless
/// `--typed-only`; a missing server becomes a limitation, not a failure), the
/// recognizer with its models loaded before the first turn, the translator
/// with its pipelines started, and the synthesizer with the pronunciation
/// dictionaries of both sides. Anything that cannot start is left out with a
/// one-sentence limitation; the dialogue goes on without it.
func makeEngines(_ request: EngineRequest) async -> DialogueEngines {
    let translator = makeTranslator(request)
    let synthesizer = makeSynthesizer(request)
    let (recognizer, recognitionLimits) = await makeRecognizer(request)
    let (session, audioLimits) = await openAudioSession(request)
    await prepareTranslations(translator, request)
    return DialogueEngines(
        source: session, sink: session, audioEvents: session?.events,
        recognizer: recognizer, translator: translator, synthesizer: synthesizer,
        limitations: audioLimits + recognitionLimits,
        shutdown: {
            await session?.close()
            await translator.shutdown()
        })
}

/// Apertium, one process per direction.
private func makeTranslator(_ request: EngineRequest) -> ApertiumTranslator {
    let packages = (try? ApertiumPackageIndex.load(from: request.directories.layered)) ?? ApertiumPackageIndex()
    return ApertiumTranslator(locales: request.registry.catalog, packages: packages)
}

/// Starts both directions now, so the first sentence does not pay for loading
/// Apertium's transducers; a missing direction is reported on the first turn.
private func prepareTranslations(_ translator: ApertiumTranslator, _ request: EngineRequest) async {
    let (a, b) = (request.locales[0], request.locales[1])
    for (source, target) in [(a, b), (b, a)] {
        try? await translator.prepare(from: source, to: target)
    }
}

/// eSpeak NG with the locale, gender and pronunciation tables of both sides' languages.
private func makeSynthesizer(_ request: EngineRequest) -> ESpeakSynthesizer? {
    let directories = request.directories
    let overrides = loadPronunciationOverrides(directories, languages: request.locales.map(\.language))
    return try? ESpeakSynthesizer(dataDirectories: directories.layered, overrides: overrides)
}

/// PocketSphinx over the installed models, with each side's model loaded now.
/// A side without a model is typed-only; the dialogue says so itself.
private func makeRecognizer(_ request: EngineRequest) async -> (PocketSphinxRecognizer?, [String]) {
    guard !request.command.typedOnly else { return (nil, []) }
    let recognizer = PocketSphinxRecognizer(models: ModelRegistry(userDirectory: request.directories.models),
                                            priorities: request.registry.priorities)
    var limitations: [String] = []
    for locale in Set(request.locales) where recognizer.models.model(for: locale) != nil {
        do {
            try await recognizer.preload(locale, endpointMilliseconds: request.command.endpointMilliseconds)
        } catch {
            limitations.append("speech in \(locale) cannot be recognized: \(error)")
        }
    }
    return (recognizer, limitations)
}

/// The one audio session of the conversation, or a limitation saying why there is none.
private func openAudioSession(_ request: EngineRequest) async -> (AudioSession?, [String]) {
    let command = request.command
    guard !command.typedOnly || !command.mute else { return (nil, []) }
    let session = AudioSession(options: command.common.audioSessionOptions(), logger: Logger(label: "parley.audio"))
    do {
        try await session.open()
        return (session, [])
    } catch {
        return (nil, ["\(error); lines are typed and translations printed"])
    }
}
