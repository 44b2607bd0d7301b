import Audio
import Dialogue
import Locales
import Logging
import ParleyCore
import PocketSphinxRecognition
import Recognition
import Synthesis
import Translation
import WhisperRecognition

/// What `makeStages` needs to build the stages of a conversation.
struct StageRequest {
    /// The parsed command line (`--source`, `--sink`, `--server`, `--typed-only`, `--mute`).
    var command: DialogueCommand
    /// Data, models and state directories.
    var directories: DataDirectories
    /// The locale tables.
    var registry: LocaleRegistry
    /// The locales of sides A and B.
    var locales: [LocaleTag]
}

// MARK: - Wiring point for the stages

/// Builds the stages the dialogue runs on.
///
/// This is the one place the concrete stages meet the dialogue: the audio
/// session (one source and sink for the whole conversation, unless
/// `--typed-only`; a missing server becomes a limitation, not a failure), the
/// recognizer with its models loaded before the first turn, the translator
/// with its pipelines started, and the synthesizer with the pronunciation
/// dictionaries of both sides. Anything that cannot start is left out with a
/// one-sentence limitation; the dialogue goes on without it. The third value says whether
/// the session records and plays through an echo canceller.
func makeStages(_ request: StageRequest) async -> (DialogueStages, RecognizerRouter?, Bool) {
    let translator = makeTranslator(request)
    let synthesizer = makeSynthesizer(request)
    // Whisper's worker loads for seconds: in parallel with the audio session and Apertium.
    async let recognition = makeRecognizer(request)
    let (session, canceller, audioLimits) = await openAudioSession(request)
    await prepareTranslations(translator, request)
    let (recognizer, recognitionLimits) = await recognition
    let stages = DialogueStages(
        source: session, sink: session, audioEvents: session?.events,
        recognizer: recognizer,
        translator: GlossaryTranslator(wrapping: translator, store: GlossaryStore(directory: request.directories.user)),
        synthesizer: synthesizer,
        limitations: audioLimits + recognitionLimits,
        shutdown: {
            await session?.close()
            await canceller?.unloading(server: request.command.common.server)
            await translator.shutdown()
            await recognizer?.whisper?.worker.shutdown()
        })
    return (stages, recognizer, canceller != nil)
}

/// Apertium, one process per direction.
private func makeTranslator(_ request: StageRequest) -> ApertiumTranslator {
    makeApertium(request.directories, request.registry)
}

/// Apertium with the installed packages and the translation clean-up tables.
func makeApertium(_ directories: DataDirectories, _ registry: LocaleRegistry) -> ApertiumTranslator {
    let packages = (try? ApertiumPackageIndex.load(from: directories.layered)) ?? ApertiumPackageIndex()
    let cleanup = (try? TranslationCleanup.load(from: directories.layered)) ?? TranslationCleanup()
    return ApertiumTranslator(locales: registry.catalog, packages: packages, configuration: .init(cleanup: cleanup))
}

/// Starts both directions now, so the first sentence does not pay for loading
/// Apertium's transducers; a missing direction is reported on the first turn.
private func prepareTranslations(_ translator: ApertiumTranslator, _ request: StageRequest) async {
    let (a, b) = (request.locales[0], request.locales[1])
    for (source, target) in [(a, b), (b, a)] {
        try? await translator.prepare(from: source, to: target)
    }
}

/// eSpeak NG with the locale, gender and pronunciation tables of both sides' languages.
private func makeSynthesizer(_ request: StageRequest) -> ESpeakSynthesizer? {
    makeESpeak(request.directories, languages: request.locales.map(\.language))
}

/// eSpeak NG with the pronunciation dictionaries of `languages`.
func makeESpeak(_ directories: DataDirectories, languages: [String]) -> ESpeakSynthesizer? {
    let overrides = loadPronunciationOverrides(directories, languages: languages)
    return try? ESpeakSynthesizer(dataDirectories: directories.layered, overrides: overrides)
}

/// Whisper and PocketSphinx behind one router, with the engine of each side started now
/// (Whisper's worker takes seconds to load). A side no recognizer serves is typed-only;
/// the dialogue says so itself.
private func makeRecognizer(_ request: StageRequest) async -> (RecognizerRouter?, [String]) {
    guard !request.command.typedOnly else { return (nil, []) }
    return await startRecognizers(request.command.recognition, request.directories, request.registry,
                                  locales: request.locales, endpointMilliseconds: request.command.endpointMilliseconds)
}

/// The recognizer router `choice` asks for, with the engine of each of `locales` started now.
func startRecognizers(_ choice: RecognitionChoiceOptions, _ directories: DataDirectories, _ registry: LocaleRegistry,
                      locales: [LocaleTag], endpointMilliseconds: Int) async -> (RecognizerRouter?, [String]) {
    let router: RecognizerRouter
    do {
        router = try makeRecognizerRouter(choice, directories: directories, priorities: registry.priorities)
    } catch {
        return (nil, ["speech cannot be recognized: \(error)"])
    }
    var limitations: [String] = []
    if let whisper = router.whisper {
        do { try await whisper.start() } catch { limitations.append("Whisper recognition is unavailable: \(error)") }
    }
    for locale in Set(locales) where await router.engine(for: locale) == .pocketsphinx {
        do {
            try await router.pocketsphinx?.preload(locale, endpointMilliseconds: endpointMilliseconds)
        } catch {
            limitations.append("speech in \(locale) cannot be recognized: \(error)")
        }
    }
    return (router, limitations)
}

/// The one audio session of the conversation, through the echo canceller `--echo-cancel` asks
/// for, or a limitation saying why there is none.
private func openAudioSession(_ request: StageRequest) async -> (AudioSession?, EchoCanceller?, [String]) {
    let command = request.command
    guard !command.typedOnly || !command.mute else { return (nil, nil, []) }
    var options = command.common.audioSessionOptions()
    var limitations: [String] = []
    var canceller: EchoCanceller?
    if command.echoCancel != .off, !command.typedOnly {
        do {
            canceller = try await EchoCanceller.loading(server: options.server, source: options.source, sink: options.sink)
            options.echoGuardHearsMicrophone = true
            options.echoGuardSource = options.source
            options.source = canceller?.source
            options.sink = canceller?.sink
        } catch where command.echoCancel == .on || command.bargeIn == .on {
            limitations.append("\(error); the microphone closes while Parley speaks")
        } catch {}
    }
    // Through a canceller (or for the measurement without one) the microphone stays open
    // while Parley speaks; the echo guard judges what it hears.
    options.gatesCaptureDuringPlayback = canceller == nil && !command.listenDuringPlayback
    options.echoGuardCompares = !command.listenDuringPlayback
    let session = AudioSession(options: options, logger: Logger(label: "parley.audio"))
    do {
        try await session.open()
        return (session, canceller, limitations)
    } catch let unavailable as AudioServerUnavailable where command.typedOnly {
        return (nil, nil, [unavailable.described(offering: "--mute")])
    } catch {
        await canceller?.unloading(server: options.server)
        return (nil, nil, limitations + ["\(error); lines are typed and translations printed"])
    }
}
