import Audio
import Locales
import ParleyCore
import PocketSphinxRecognition
import Recognition
import Synthesis
import Translation
import WhisperRecognition

/// What is installed, engine by engine: the facts behind `doctor` and `languages`.
///
/// Nothing here is a list of locales: what can be spoken is every language an
/// installed eSpeak NG voice speaks, what can be recognized is every language of
/// the Whisper model and every PocketSphinx model folder, and what can be
/// translated is every installed Apertium direction.
struct Inventory {
    var locales: LocaleRegistry
    var models: PocketSphinxModelRegistry
    var synthesis: Result<SynthesisInventory, any Error>
    /// The installed voices with the catalog's locales; nil when eSpeak NG cannot start.
    var voices: VoiceCatalog?
    var translation: ApertiumModes
    /// The Whisper worker's parts, and the languages of its best model when everything is there.
    var whisper: WhisperInstallation
    var whisperLanguages: Set<String>

    /// Looks at every engine except the audio server.
    static func gather(_ options: CommonOptions) async throws -> Inventory {
        let directories = try options.directories()
        let whisper = whisperInstallation(directories)
        var registry = try LocaleRegistry.load(from: directories.layered)
        let genders = try? VoiceGenderTable.load(from: directories.layered)
        let synthesis = await probeSynthesis(directories)
        if case let .success(installed) = synthesis { registry.names.extraLanguages = voiceLanguages(installed.voices) }
        return Inventory(locales: registry,
                         models: PocketSphinxModelRegistry(userDirectory: directories.models),
                         synthesis: synthesis,
                         voices: try? await SynthesisInventoryProbe.catalog(registry: registry, genders: genders ?? VoiceGenderTable()),
                         translation: ApertiumModes(), whisper: whisper,
                         whisperLanguages: whisper.problem == nil ? Set(whisper.models[0].languages()) : [])
    }

    /// The languages of `voices` that ISO data does not name (eSpeak NG's Quenya, `qya`), with the voice's name.
    static func voiceLanguages(_ voices: [Voice]) -> [String: String] {
        let names = LanguageNames()
        var languages: [String: String] = [:]
        for voice in voices where names.languageName(voice.language) == nil && LocaleTag(voice.language) != nil {
            languages[voice.language] = voice.name.replacingOccurrences(of: "_", with: " ")
        }
        return languages
    }

    /// What eSpeak NG has installed, or why it cannot say.
    private static func probeSynthesis(_ directories: DataDirectories) async -> Result<SynthesisInventory, any Error> {
        do {
            let genders = try VoiceGenderTable.load(from: directories.layered)
            return .success(try await SynthesisInventoryProbe.probe(genders: genders))
        } catch {
            return .failure(error)
        }
    }

    /// Whether `locale` can be recognized.
    func canRecognize(_ locale: LocaleTag) -> Bool { !recognizers(for: locale).isEmpty }

    /// The recognizers that can serve `locale`, Whisper first.
    func recognizers(for locale: LocaleTag) -> [RecognizerKind] {
        (ModelLanguageCode.whisperServes(locale, languages: whisperLanguages) ? [.whisper] : [])
            + (models.model(for: locale.languageAndRegion) != nil ? [.pocketsphinx] : [])
    }

    /// Whether `locale` can be spoken: some installed voice speaks it or its language.
    func canSpeak(_ locale: LocaleTag) -> Bool { voice(for: locale) != nil }

    /// The identifier of the voice that speaks `locale` (`sq` for sq-AL), if any.
    func voice(for locale: LocaleTag) -> String? { voices?.voiceIdentifier(for: locale) }

    /// The locales `locale` translates into through one installed Apertium direction: the
    /// catalog's locale for each target (`spa` → es-ES, `eng_US` → en-US), else its language.
    func translationTargets(from locale: LocaleTag) -> [LocaleTag] {
        let source = ApertiumLanguageCodes.code(for: locale, catalog: locales.catalog).code
        var targets: [LocaleTag] = []
        for direction in translation.directions where ApertiumLanguageCodes.threeLetterCode(direction.source) == source {
            let target = ApertiumLanguageCodes.locale(forCode: direction.target, variant: direction.variant,
                                                      catalog: locales.catalog)
            if target.language != locale.language, !targets.contains(target) { targets.append(target) }
        }
        return targets
    }

    /// The locales `locale` reaches only through other languages, each with the languages it goes
    /// through in their shortest codes (`es`): the best route of `TranslationRoutes`, as
    /// `parley translate` and the dialogue would take it.
    func pivotedTranslationTargets(from locale: LocaleTag) -> [(target: LocaleTag, through: [String])] {
        let source = ApertiumLanguageCodes.code(for: locale, catalog: locales.catalog).code
        let direct = Set(translationTargets(from: locale).map(\.language))
        return TranslationRoutes(modes: translation).bestRoutes(from: source)
            .filter { !$0.value.isDirect }
            .sorted { $0.key < $1.key }
            .compactMap { code, route in
                let target = ApertiumLanguageCodes.locale(forCode: code, variant: nil, catalog: locales.catalog)
                guard target.language != locale.language, !direct.contains(target.language) else { return nil }
                return (target, route.pivots.map(ApertiumLanguageCodes.short))
            }
    }

    /// Every language an Apertium direction translates from, as a locale.
    var translationSources: [LocaleTag] {
        var sources: [LocaleTag] = []
        for direction in translation.directions {
            let tag = ApertiumLanguageCodes.locale(forCode: direction.source, variant: nil, catalog: locales.catalog)
            if !sources.contains(tag) { sources.append(tag) }
        }
        return sources
    }
}
