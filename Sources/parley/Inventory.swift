import Audio
import Locales
import ParleyCore
import Recognition
import Synthesis
import Translation

/// What is installed, engine by engine: the facts behind `doctor` and `languages`.
struct Inventory {
    var locales: LocaleRegistry
    var models: ModelRegistry
    var synthesis: Result<SynthesisInventory, any Error>
    var translation: ApertiumModes
    /// The Whisper worker's parts, and the languages of its best model when everything is there.
    var whisper: WhisperInstallation
    var whisperLanguages: Set<String>

    /// Looks at every engine except the audio server.
    static func gather(_ options: CommonOptions) async throws -> Inventory {
        let directories = try options.directories()
        let whisper = whisperInstallation(directories)
        return Inventory(locales: try LocaleRegistry.load(from: directories.layered),
                         models: ModelRegistry(userDirectory: directories.models),
                         synthesis: await probeSynthesis(directories),
                         translation: ApertiumModes(), whisper: whisper,
                         whisperLanguages: whisper.problem == nil ? Set(whisper.models[0].languages()) : [])
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
        (whisperLanguages.contains(locale.language) ? [.whisper] : [])
            + (models.model(for: locale) != nil ? [.pocketsphinx] : [])
    }

    /// Whether `locale` can be spoken.
    func canSpeak(_ locale: LocaleTag) -> Bool {
        guard case let .success(inventory) = synthesis else { return false }
        return inventory.hasVoice(for: locale, espeakVoice: locales.catalog.info(for: locale)?.espeakVoice)
    }

    /// Known locales that `locale` can be translated into.
    func translationTargets(from locale: LocaleTag) -> [LocaleTag] {
        guard let source = locales.catalog.info(for: locale) else { return [] }
        return locales.catalog.locales.filter { target in
            target.apertiumCode != source.apertiumCode
                && !translation.directions(from: source.apertiumCode, to: target.apertiumCode).isEmpty
        }.map(\.tag)
    }
}
