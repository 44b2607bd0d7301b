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
    /// Each side's microphone, speaker and server.
    var devices: SideDevicePlan
}

// MARK: - Wiring point for the stages

/// Builds the stages the dialogue runs on.
///
/// This is the one place the concrete stages meet the dialogue: the audio
/// session (one source and sink for the whole conversation, or one session per side
/// with separate devices; none with `--typed-only`; a missing server becomes a
/// limitation, not a failure), the
/// recognizer with its models loaded before the first turn, the translator
/// with its pipelines started, and the synthesizer with the pronunciation
/// dictionaries of both sides. Anything that cannot start is left out with a
/// one-sentence limitation; the dialogue goes on without it. The third value says whether
/// the session (every side's) records and plays through an echo canceller.
///
/// With a microphone and speaker per side, a side whose server cannot be reached ends the
/// conversation before it starts, in one sentence (`SideUnreachable`), as a room's party does:
/// its devices were named on purpose, and the other person would never hear a word.
func makeStages(_ request: StageRequest) async throws -> (DialogueStages, RecognizerRouter?, Bool) {
    let translator = makeTranslator(request)
    let synthesizer = makeSynthesizer(request)
    // Whisper's worker loads for seconds: in parallel with the audio session and Apertium.
    async let recognition = makeRecognizer(request)
    let sideB = request.devices.b
    // Two sides on one server share one connection to it.
    let shared = sideB.flatMap { b in
        b.server == request.devices.a.server && b.cookie == request.devices.a.cookie
            ? AudioConnection(server: b.server, cookie: b.cookie, applicationName: b.applicationName) : nil
    }
    let a = await openAudioSession(request, options: request.devices.a, side: sideB == nil ? nil : "A", connection: shared)
    let b: OpenedAudio? = if let sideB { await openAudioSession(request, options: sideB, side: "B", connection: shared) } else { nil }
    await prepareTranslations(translator, request)
    let (recognizer, recognitionLimits) = await recognition
    var stages = DialogueStages(
        source: a.session, sink: a.session, audioEvents: a.session?.events,
        recognizer: recognizer,
        translator: GlossaryTranslator(wrapping: translator, store: GlossaryStore(directory: request.directories.user)),
        synthesizer: synthesizer,
        limitations: a.limitations + (b?.limitations ?? []) + recognitionLimits,
        shutdown: {
            for opened in [a, b].compactMap({ $0 }) {
                await opened.session?.close()
                await opened.canceller?.unloading(server: opened.server, cookie: opened.cookie)
            }
            await translator.shutdown()
            await recognizer?.whisper?.worker.shutdown()
        })
    if let b {
        stages.sideB = SideAudio(source: b.session, sink: b.session, audioEvents: b.session?.events)
    }
    if let unreachable = a.unreachable ?? b?.unreachable {
        await stages.shutdown()
        throw unreachable
    }
    return (stages, recognizer, a.canceller != nil && (b.map { $0.canceller != nil } ?? true))
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

/// One audio session of the conversation and the canceller it records and plays through.
private struct OpenedAudio: Sendable {
    var session: AudioSession?
    var canceller: EchoCanceller?
    /// The server the canceller was loaded on, and its cookie.
    var server: String?
    var cookie: PulseCookie?
    var limitations: [String]
    /// A side's own server that could not be reached.
    var unreachable: SideUnreachable?
}

/// A side's own audio server could not be reached when the conversation opened.
struct SideUnreachable: Error, CustomStringConvertible {
    var side: String
    var server: String?
    var reason: String
    var description: String {
        "side \(side) cannot be reached on \(server ?? "the default server"): \(reason); start that server, or check its address and cookie"
    }
}

/// An audio session of the conversation (the one, or `side`'s own with separate devices),
/// through the echo canceller `--echo-cancel` asks for, or a limitation saying why there is none.
private func openAudioSession(_ request: StageRequest, options requested: AudioSessionOptions,
                              side: String?, connection: AudioConnection? = nil) async -> OpenedAudio {
    let command = request.command
    var options = requested
    guard !command.typedOnly || !command.mute else { return OpenedAudio(server: options.server, limitations: []) }
    // A side's own limitation names the side.
    let named = { (text: String) in side.map { "side \($0): \(text)" } ?? text }
    var limitations: [String] = []
    var canceller: EchoCanceller?
    // With a microphone per side (a headset each), `auto` loads no canceller: neither
    // microphone hears the other side's translations.
    let wantsCanceller = side == nil ? command.echoCancel != .off : command.echoCancel == .on
    if wantsCanceller, !command.typedOnly {
        do {
            canceller = try await EchoCanceller.loading(server: options.server, source: options.source, sink: options.sink,
                                                        cookie: options.cookie, tag: side?.lowercased())
            options.echoGuardHearsMicrophone = true
            options.echoGuardSource = options.source
            options.source = canceller?.source
            options.sink = canceller?.sink
        } catch where command.echoCancel == .on || (command.bargeIn == .on && side == nil) {
            limitations.append(named("\(error); the microphone closes while Parley speaks"))
        } catch {}
    }
    // Through a canceller, with a microphone per side (its echo guard judges what its own
    // speaker leaks), or for the measurement, the microphone stays open while Parley speaks.
    options.gatesCaptureDuringPlayback = canceller == nil && side == nil && !command.listenDuringPlayback
    options.echoGuardCompares = !command.listenDuringPlayback
    let label = side.map { "parley.audio.side\($0.lowercased())" } ?? "parley.audio"
    let session = AudioSession(options: options, connection: connection, logger: Logger(label: label))
    do {
        try await session.open()
        return OpenedAudio(session: session, canceller: canceller, server: options.server, cookie: options.cookie,
                           limitations: limitations)
    } catch let unavailable as AudioServerUnavailable where command.typedOnly && side == nil {
        return OpenedAudio(server: options.server, limitations: [named(unavailable.described(offering: "--mute"))])
    } catch {
        await canceller?.unloading(server: options.server, cookie: options.cookie)
        if let side {
            let reason = (error as? AudioServerUnavailable)?.reason ?? "\(error)"
            return OpenedAudio(server: options.server, limitations: [],
                               unreachable: SideUnreachable(side: side, server: options.server, reason: reason))
        }
        return OpenedAudio(server: options.server, limitations: limitations + ["\(error); lines are typed and translations printed"])
    }
}
