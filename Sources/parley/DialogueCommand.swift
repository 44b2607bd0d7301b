import ArgumentParser
import Dialogue
import Foundation
import Locales
import ParleyCore
import Recognition
import REPL
import Synthesis
import WhisperRecognition

/// `parley dialog` (and `parley` alone): the spoken-dialogue REPL.
struct DialogueCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "dialog",
        abstract: "Start a conversation between two locales (the default command).",
        discussion: """
            Side A speaks first, in LOCALE_A; what each side says is recognized, translated and \
            spoken to the other side. Type a line to say it in writing, press Enter on an empty \
            line to end a spoken turn at once, Ctrl-C to cancel, Ctrl-D to leave; :help lists the \
            commands. With standard input not a terminal, each line is typed input for the side \
            whose turn it is, or a : command, and output is plain lines.

            The two sides share one microphone and speaker (--source, --sink, --server) unless \
            side B is given its own: --source-b, --sink-b and --server-b, or a locale written as \
            a room party, LOCALE,source=NAME,sink=NAME,server=ADDRESS,cookie=FILE (see `parley \
            room --help`). Each side is then heard on its own microphone only and hears its \
            translations on its own speaker; with a headset each, the microphones do not hear \
            the translations, so --simultaneous and --barge-in need no echo canceller.
            """,
        aliases: ["dialogue"])

    @Argument(help: ArgumentHelp("The locale of side A, who speaks first (LOCALE[,source=NAME][,sink=NAME][,server=ADDRESS][,cookie=FILE] for its own devices).",
                                 valueName: "locale-a"))
    var localeA = "en-US"

    @Argument(help: ArgumentHelp("The locale of side B (LOCALE[,source=NAME][,sink=NAME][,server=ADDRESS][,cookie=FILE] for its own devices).",
                                 valueName: "locale-b"))
    var localeB = "es-ES"

    @Option(name: .customLong("source-b"),
            help: ArgumentHelp("Side B's own microphone (a source name; see `parley devices`): side A's are then --source and --sink.", valueName: "name"))
    var sourceB: String?

    @Option(name: .customLong("sink-b"), help: ArgumentHelp("Side B's own speaker (a sink name).", valueName: "name"))
    var sinkB: String?

    @Option(name: .customLong("server-b"),
            help: ArgumentHelp("Side B's own audio server (tcp:HOST:PORT for another machine, unix:/PATH; default: side A's).", valueName: "address"))
    var serverB: String?

    @OptionGroup var options: ConversationOptions

    @Option(help: ArgumentHelp("alternate: sides take turns; auto: either side may speak, each utterance goes to the side whose language it is (needs Whisper).",
                               valueName: "alternate|auto"))
    var turns: TurnsOption = .alternate

    @Option(name: .customLong("yield-ms"), parsing: .unconditional,
            help: ArgumentHelp("On a microphone both sides share, the silence that hands the floor to the other side. Turn by turn (with barge-in), a translation waits until the speaker has been silent this long, so that a speaker who goes on after a pause is heard without it over them; interpreting simultaneously, it ends the speaker's turn, and a shorter pause ends a clause, translated and spoken while the turn goes on. The default, 1500, is above the 0.6-1.0 s pauses between one person's sentences; --yield-ms equal to --endpoint-ms hands the floor on at the endpoint.",
                               valueName: "ms"))
    var yieldMilliseconds: Int?

    @Option(name: .customLong("duck-db"), parsing: .unconditional,
            help: ArgumentHelp("Interpreting simultaneously on a microphone both sides share (with loudspeakers), how many dB quieter a clause's translation plays while its speaker still holds the floor, so that the microphone hears the speaker over their own translation; the clauses spoken once the speaker yields play at full level. Default 10; 0 plays every clause at full level. A microphone and speaker per side are never ducked.",
                               valueName: "dB"))
    var duckDecibels: Double?

    /// `--turns`, as `TurnTaking`.
    enum TurnsOption: String, ExpressibleByArgument, CaseIterable {
        case alternate, auto
    }

    @Option(name: .customLong("echo-cancel"),
            help: ArgumentHelp("Record and play through the audio server's echo canceller (module-echo-cancel): on, off, or auto (on when the server offers one; off with a microphone and speaker per side, where on loads one for each). With it the microphone stays open while Parley speaks (see --barge-in); off closes it.",
                               valueName: "auto|on|off"))
    var echoCancel: EchoCancelOption = .auto

    @Flag(name: .customLong("listen-during-playback"),
          help: ArgumentHelp("For measurement: keep the microphone open while Parley speaks with no echo canceller and no echo guard, so any sound over a translation holds it and is recognized.",
                             visibility: .hidden))
    var listenDuringPlayback = false

    /// `--echo-cancel`.
    enum EchoCancelOption: String, ExpressibleByArgument, CaseIterable {
        case auto, on, off
    }

    @Flag(name: .customLong("typed-only"), help: "Never open the microphone.")
    var typedOnly = false

    @Flag(help: "Print translations without speaking them.")
    var mute = false

    var common: CommonOptions { options.common }
    var recognition: RecognitionChoiceOptions { options.recognition }
    var bargeIn: InterpretationOptions.BargeInOption? { options.interpretation.bargeIn }
    var simultaneous: Bool { options.interpretation.simultaneous }
    var commitPolicy: CommitPolicyOption? { options.interpretation.commitPolicy }

    func validate() throws {
        let devices: SideDevicePlan
        do {
            devices = try sideDevices()
        } catch {
            throw ValidationError(error.description)
        }
        for name in [devices.recognizerA, devices.recognizerB].compactMap({ $0 }) { try RecognitionChoiceOptions.check(name) }
        for voice in [devices.voiceA, devices.voiceB].compactMap({ $0 }) { try checkVoice(voice) }
        if devices.isSeparate, turns == .auto {
            throw ValidationError("--turns auto tells the sides apart by their language on one microphone; with a microphone each, take turns (--turns alternate) or use `parley room`, where anyone may speak at any time")
        }
        if devices.isSeparate, listenDuringPlayback {
            throw ValidationError("--listen-during-playback measures one shared microphone; leave out side B's own devices with it")
        }
        if bargeIn == .on, echoCancel == .off, !listenDuringPlayback, !devices.isSeparate {
            throw ValidationError("--barge-in on needs echo cancellation (--echo-cancel on or auto): without it the microphone would hear the translation as a person")
        }
        if simultaneous, echoCancel == .off, !devices.isSeparate {
            throw ValidationError("--simultaneous needs echo cancellation (--echo-cancel on or auto): the microphone stays open while the translation plays, and without a canceller it would hear it")
        }
        if simultaneous, typedOnly {
            throw ValidationError("--simultaneous interprets a side while they speak into the microphone, which --typed-only never opens; give one or the other")
        }
        if listenDuringPlayback, echoCancel != .off {
            throw ValidationError("--listen-during-playback measures the microphone without echo cancellation; give --echo-cancel off with it")
        }
        if turns == .auto, recognition.recognizer == .pocketsphinx {
            throw ValidationError("--turns auto hears both languages with Whisper, which --recognizer pocketsphinx leaves out; give one or the other")
        }
        if let duckDecibels, !(0...40).contains(duckDecibels) {
            throw ValidationError("--duck-db must be between 0 (no ducking) and 40 decibels, not \(duckDecibels.formatted())")
        }
        if let yieldMilliseconds, !(options.endpointMilliseconds...10_000).contains(yieldMilliseconds) {
            throw ValidationError("--yield-ms must be between --endpoint-ms (\(options.endpointMilliseconds)) and 10000 milliseconds: a pause that ends a turn cannot be shorter than one that ends an utterance")
        }
    }

    /// Each side's devices, from the options and the locale arguments.
    func sideDevices() throws(DeviceRefusal) -> SideDevicePlan {
        try SideDevicePlan(localeA: localeA, localeB: localeB, common: common,
                           sourceB: sourceB, sinkB: sinkB, serverB: serverB)
    }

    func run() async throws {
        try await reportingFailure {
            let directories = try common.directories()
            let inventory = try await Inventory.gather(common)
            let registry = inventory.locales
            let devices = try sideDevices()
            let sides = (try registry.resolve(devices.localeA), try registry.resolve(devices.localeB))
            try UnservedLocale.check(sides.0, talkingWith: sides.1, in: inventory)
            try UnservedLocale.check(sides.1, talkingWith: sides.0, in: inventory)
            var configuration = DialogueConfiguration(
                sideA: SideSettings(locale: sides.0), sideB: SideSettings(locale: sides.1),
                endpointMilliseconds: options.endpointMilliseconds, speaksTranslations: !mute, usesMicrophone: !typedOnly)
            configuration.turnTaking = TurnTaking(rawValue: turns.rawValue) ?? .alternate
            if let yieldMilliseconds { configuration.yieldMilliseconds = yieldMilliseconds }
            if let duckDecibels { configuration.duckDecibels = duckDecibels }
            var (stages, opened, echoCancelled) = try await makeStages(StageRequest(command: self, directories: directories,
                                                                         registry: registry, locales: [sides.0, sides.1],
                                                                         devices: devices))
            stages.waitGivenUp = { printError("\($0); leaving") }
            let router = opened.recognizer
            for (side, voice) in zip([DialogueSide.a, .b], opened.voices) {
                if let voice { configuration[side].voice = .identifier(voice) }
            }
            // With a microphone each, a side's microphone does not hear the translations the
            // other side hears; its own it may, and its session's echo guard judges that.
            configuration.bargeInUnavailable = echoCancelled || listenDuringPlayback || devices.isSeparate ? nil
                : "it needs echo cancellation, and this conversation has none (--echo-cancel off, or the server offers no canceller)"
            configuration.bargeIn = configuration.bargeInUnavailable == nil && bargeIn != .off
            configuration.simultaneousUnavailable = echoCancelled || devices.isSeparate ? nil
                : "it needs echo cancellation, so that the microphone, open while the translation plays, does not hear it (--echo-cancel off, or the server offers no canceller)"
            if simultaneous, let reason = configuration.simultaneousUnavailable {
                await stages.shutdown()
                throw StartRefused(description: "--simultaneous cannot work here: \(reason)")
            }
            configuration.simultaneous = simultaneous
            if configuration.simultaneous, let note = OwnPaceVoices.note(opened.voices) { stages.limitations.append(note) }
            if let reason = InterpretationOptions.turnByTurnReason(recognition) {
                if simultaneous { stages.limitations.append("simultaneous interpretation is off: \(reason)") }
                configuration.simultaneousUnavailable = reason
                configuration.simultaneous = false
            }
            if let commitPolicy { configuration.commitPolicy = commitPolicy.policy }
            let transcriptWriter = try await options.openTranscript(directories, shuttingDownOnRefusal: stages.shutdown)
            defer { options.keepTranscript(transcriptWriter) }
            let coordinator = TurnCoordinator(configuration: configuration, stages: stages, transcript: transcriptWriter)
            let repl = Repl(coordinator: coordinator,
                            services: await services(registry, directories, [sides.0, sides.1], router: router,
                                                     synthesizer: opened.espeak, inventory: inventory),
                            options: options.replOptions(directories))
            try await repl.run()
        }
    }

    private func services(_ registry: LocaleRegistry, _ directories: DataDirectories,
                          _ sides: [LocaleTag], router: RecognizerRouter?, synthesizer: ESpeakSynthesizer?,
                          inventory: Inventory) async -> ReplServices {
        let common = self.common
        let locales = registry.catalog.locales.flatMap { [$0.tag.description] + $0.names }
        let languages = Array(Set(sides.map(\.language))).sorted()
        var services = ReplServices(
            resolveLocale: { input in
                let tag = try registry.resolve(input)
                try UnservedLocale.check(tag, in: inventory)
                return tag
            },
            languages: { await languagesTable(common) },
            dictionary: { arguments in
                let output = await runDictionaryCommand(arguments, dictionaries: common.dictionaries)
                if let synthesizer { reloadPronunciations(of: synthesizer, directories, languages: languages, after: arguments) }
                return output
            },
            recognizer: { a, b, side, name in await recognizerCommand(router, sides: [.a: a, .b: b], side: side, name: name) },
            phrases: { await phrasesCommand(router, $0) },
            completion: CompletionSource(locales: locales, voices: await installedVoices(), dictionaryWords: {
                dictionaryWords(languages: languages, directories: directories)
            }))
        services.glossary = { await runDictionaryCommand($0, dictionaries: common.dictionaries, command: "glossary") }
        return services
    }
}

/// eSpeak NG's voice identifiers, for completing `:voice`; none when eSpeak cannot start.
private func installedVoices() async -> [String] {
    ((try? await SynthesisInventoryProbe.probe())?.voices ?? []).map(\.identifier)
}

/// The `:languages` table: the table `parley languages` prints.
private func languagesTable(_ common: CommonOptions) async -> String {
    do {
        let rows = LanguagesCommand.rows(try await Inventory.gather(common), all: false)
        return LanguagesCommand.table(rows).trimmingCharacters(in: .newlines)
    } catch { return "cannot list the languages: \(error)" }
}
