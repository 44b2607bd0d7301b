import Audio
import Dialogue
import Locales
import ParleyCore
import Recognition
import Synthesis
import Translation
import WhisperRecognition
import Wyoming

// MARK: - The one place a conversation's engines start and its parties' sessions open

/// A dialogue's or a room's engines, started, and its parties' audio sessions, opened.
struct OpenedConversation {
    /// Apertium behind the user's glossaries.
    var translator: GlossaryTranslator
    /// The voices: eSpeak NG, or a router over it and the Wyoming servers of the parties' voices.
    var synthesizer: (any SpeechSynthesizer)?
    /// eSpeak NG, for the pronunciation dictionaries.
    var espeak: ESpeakSynthesizer?
    /// Each party's own voice (`voice=` of its locale argument), in their order; nil for the
    /// default voice of its locale, and for a voice that cannot speak (a limitation says why).
    var voices: [String?]
    /// Nil with no recognition (`--typed-only`), or when no recognizer can start.
    var recognizer: RecognizerRouter?
    /// One per party, in their order, up to and with the first whose session did not open.
    var audio: [OpenedAudio]
    /// The first party whose session did not open, in one sentence.
    var unreachable: PartyUnreachable?
    /// What recognition cannot do here, one sentence each.
    var limitations: [String]
    /// Closes every session and stops the engines.
    var shutdown: @Sendable () async -> Void

    /// The stages the conversation runs on: the devices of each of `parties` whose session was
    /// opened (the first, when the parties share it), the engines, and `limitations` besides
    /// the recognizers'.
    func stages(_ parties: [PartyAudio], limitations more: [String] = []) -> ConversationStages {
        let devices = zip(parties, audio).map { party, audio in
            PartyDevices(source: audio.session, sink: audio.session, audioEvents: audio.session?.events,
                         place: party.options.server ?? "the default server")
        }
        return ConversationStages(devices: devices, recognizer: recognizer, translator: translator, synthesizer: synthesizer,
                                  limitations: more + limitations, shutdown: shutdown)
    }
}

/// Starts what a conversation between `locales` runs on: Apertium with every direction between
/// them loaded, eSpeak NG with their pronunciation dictionaries, the recognizers `recognition`
/// asks for (none when nil) with each locale's engine loaded, and the audio session of each
/// of `parties` (see `openSessions`), all before the first word.
func openConversation(_ parties: [PartyAudio], locales: [LocaleTag], voices: [String?] = [], recognizers: [String?] = [],
                      recognition: RecognitionChoiceOptions?,
                      endpointMilliseconds: Int, _ directories: DataDirectories, _ registry: LocaleRegistry) async -> OpenedConversation {
    let translator = makeApertium(directories, registry)
    let languages = locales.map(\.language).reduce(into: [String]()) { if !$0.contains($1) { $0.append($1) } }
    let espeak = makeESpeak(directories, languages: languages)
    let (synthesizer, usableVoices, voiceLimitations) = await prepareVoices(voices, espeak: espeak)
    // Whisper's worker loads for seconds: in parallel with the sessions and Apertium.
    async let started = startRecognizers(recognition, directories, registry, locales: locales, chosen: recognizers,
                                         endpointMilliseconds: endpointMilliseconds)
    let audio = await openSessions(parties)
    // Every direction, so the first utterance does not wait for Apertium to load.
    for source in Set(locales) {
        for target in Set(locales) where target != source {
            try? await translator.prepare(from: source, to: target)
        }
    }
    let (router, recognitionLimitations) = await started
    let limitations = recognitionLimitations + voiceLimitations
    let sessions = audio.compactMap(\.session)
    return OpenedConversation(
        translator: GlossaryTranslator(wrapping: translator, store: GlossaryStore(directory: directories.user)),
        synthesizer: synthesizer, espeak: espeak, voices: usableVoices, recognizer: router, audio: audio,
        unreachable: zip(parties, audio).lazy.compactMap { $1.unreachable($0) }.first, limitations: limitations,
        shutdown: {
            // Each session unloads its own canceller.
            for session in sessions { await session.close() }
            await translator.shutdown()
            await router?.whisper?.worker.shutdown()
            await (router?.wyoming?.fallback as? WhisperRecognizer)?.worker.shutdown()
        })
}

/// The synthesizer of a conversation whose parties asked for `voices` (nil: their locale's
/// default): eSpeak NG, behind a router to the Wyoming servers among them. Each voice that
/// cannot speak (its server cannot be asked or lacks it; eSpeak NG has no such voice) is left
/// out, with a limitation saying so; its party hears the default voice of their locale.
func prepareVoices(_ voices: [String?], espeak: ESpeakSynthesizer?) async -> ((any SpeechSynthesizer)?, [String?], [String]) {
    let remote = voices.compactMap { $0 }.filter(WyomingAddress.isWyoming)
    let router = remote.isEmpty ? nil : VoiceRouter(local: espeak, voices: remote)
    let local = Set(await espeak?.voices().map(\.identifier) ?? [])
    var limitations: [String] = []
    var usable: [String?] = []
    for voice in voices {
        guard let voice else {
            usable.append(nil)
            continue
        }
        let reason: String? = if let router, WyomingAddress.isWyoming(voice) {
            await router.unavailability(of: voice)
        } else {
            local.contains(voice) ? nil : "eSpeak NG has no voice \(voice) (see `parley voices`)"
        }
        if let reason { limitations.append("the voice \(voice) cannot speak: \(reason); the locale's own voice speaks instead") }
        usable.append(reason == nil ? voice : nil)
    }
    return (router ?? espeak, usable, limitations)
}

/// Apertium with the installed packages and the translation clean-up tables.
func makeApertium(_ directories: DataDirectories, _ registry: LocaleRegistry) -> ApertiumTranslator {
    let packages = (try? ApertiumPackageIndex.load(from: directories.layered)) ?? ApertiumPackageIndex()
    let cleanup = (try? TranslationCleanup.load(from: directories.layered)) ?? TranslationCleanup()
    return ApertiumTranslator(locales: registry.catalog, packages: packages, configuration: .init(cleanup: cleanup))
}

/// eSpeak NG with the pronunciation dictionaries of `languages`.
func makeESpeak(_ directories: DataDirectories, languages: [String]) -> ESpeakSynthesizer? {
    let overrides = loadPronunciationOverrides(directories, languages: languages)
    return try? ESpeakSynthesizer(dataDirectories: directories.layered, overrides: overrides)
}

/// The recognizer router `choice` asks for (none for nil), with the engine of each of `locales`
/// started now (Whisper's worker takes seconds to load). A locale no recognizer serves is
/// typed-only; the conversation says so itself.
func startRecognizers(_ choice: RecognitionChoiceOptions?, _ directories: DataDirectories, _ registry: LocaleRegistry,
                      locales: [LocaleTag], chosen: [String?] = [], endpointMilliseconds: Int) async -> (RecognizerRouter?, [String]) {
    guard let choice else { return (nil, []) }
    let router: RecognizerRouter
    let partyServers = chosen.compactMap { $0.flatMap { try? WyomingAddress($0) } }
    do {
        router = try makeRecognizerRouter(choice, directories: directories, priorities: registry.priorities,
                                          partyServers: partyServers)
    } catch {
        return (nil, ["speech cannot be recognized: \(error)"])
    }
    // A party's own recognizer (`recognizer=` of its argument) hears its locale.
    for (locale, name) in zip(locales, chosen) {
        guard let name, let kind = WyomingAddress.isWyoming(name) ? .wyoming : RecognizerKind(rawValue: name) else { continue }
        router.choose(kind, for: locale)
    }
    var limitations: [String] = []
    if let whisper = router.whisper {
        do { try await whisper.start() } catch { limitations.append("Whisper recognition is unavailable: \(error)") }
    }
    if let wyoming = router.wyoming {
        do { try await wyoming.describe() } catch { limitations.append("speech cannot be recognized: \(error)") }
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

/// A refusal before the conversation starts, in one sentence.
struct StartRefused: Error, CustomStringConvertible { var description: String }
