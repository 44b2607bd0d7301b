public import ParleyCore
import Foundation

/// A speech model on disk: an acoustic model folder, a language model and a
/// pronunciation dictionary.
public struct SpeechModel: Sendable, Equatable {
    /// The locale it recognizes.
    public var locale: LocaleTag
    /// The acoustic model folder (`-hmm`).
    public var acousticModel: String
    /// The n-gram language model (`-lm`).
    public var languageModel: String
    /// The pronunciation dictionary (`-dict`).
    public var dictionary: String

    /// The files that must exist for the model to load (mixture weights may be `sendump` or
    /// `mixture_weights`, so neither is required). PocketSphinx ends the process on some
    /// missing acoustic model files instead of failing, so they are checked before loading.
    var requiredFiles: [String] {
        ["mdef", "means", "variances", "transition_matrices", "noisedict"].map { "\(acousticModel)/\($0)" }
            + [languageModel, dictionary]
    }

    /// The first required file that is missing, if any.
    public var missingFile: String? {
        requiredFiles.first { !FileManager.default.fileExists(atPath: $0) }
    }

    /// The first required file that is missing or empty, if any: a folder with one is not a model.
    var incompleteFile: String? {
        requiredFiles.first { path in
            ((try? FileManager.default.attributesOfItem(atPath: path)[.size]) as? Int ?? 0) == 0
        }
    }
}

/// Finds installed PocketSphinx models (Whisper's are `WhisperInstallation`'s):
/// the packaged en-US model, and one folder per locale in the user's models
/// directory.
///
/// A user model folder is named by its locale (`es-ES`) and holds an acoustic
/// model folder (any folder containing `mdef`), a language model (`*.lm.bin`,
/// `*.lm` or `*.arpa`) and a pronunciation dictionary (`*.dict` or `*.dic`).
public struct PocketSphinxModelRegistry: Sendable {
    /// Where Debian's pocketsphinx-en-us installs the US English model.
    public static let packagedEnglishDirectory = "/usr/share/pocketsphinx/model/en-us"

    /// Every model found, one per locale; a user model replaces a packaged one.
    public private(set) var models: [LocaleTag: SpeechModel]

    /// Scans the packaged location and `userDirectory`.
    public init(userDirectory: String?, packagedEnglishDirectory: String = PocketSphinxModelRegistry.packagedEnglishDirectory) {
        models = [:]
        let packaged = SpeechModel(locale: LocaleTag(language: "en", region: "US"),
                                   acousticModel: packagedEnglishDirectory + "/en-us",
                                   languageModel: packagedEnglishDirectory + "/en-us.lm.bin",
                                   dictionary: packagedEnglishDirectory + "/cmudict-en-us.dict")
        if packaged.missingFile == nil { models[packaged.locale] = packaged }
        if let userDirectory { scan(userDirectory) }
    }

    /// Locales with a complete model, sorted.
    public var supportedLocales: [LocaleTag] { models.keys.sorted() }

    /// The model for `locale`, if installed.
    public func model(for locale: LocaleTag) -> SpeechModel? { models[locale] }

    private mutating func scan(_ directory: String) {
        let fileManager = FileManager.default
        guard let entries = try? fileManager.contentsOfDirectory(atPath: directory) else { return }
        for entry in entries {
            guard let locale = LocaleTag(entry), locale.region != nil,
                  let model = Self.model(in: "\(directory)/\(entry)", locale: locale) else { continue }
            models[locale] = model
        }
    }

    /// The model in `folder` for `locale`: an acoustic model folder (with `mdef`), a language model and a
    /// dictionary, with every file the decoder needs present and not empty.
    public static func model(in folder: String, locale: LocaleTag) -> SpeechModel? {
        guard let files = try? FileManager.default.contentsOfDirectory(atPath: folder).sorted() else { return nil }
        let acoustic = files.first { FileManager.default.fileExists(atPath: "\(folder)/\($0)/mdef") }
        let languageModel = files.first { $0.hasSuffix(".lm.bin") || $0.hasSuffix(".lm") || $0.hasSuffix(".arpa") }
        let dictionary = files.first { $0.hasSuffix(".dict") || $0.hasSuffix(".dic") }
        guard let acoustic, let languageModel, let dictionary else { return nil }
        let model = SpeechModel(locale: locale, acousticModel: "\(folder)/\(acoustic)",
                                languageModel: "\(folder)/\(languageModel)", dictionary: "\(folder)/\(dictionary)")
        return model.incompleteFile == nil ? model : nil
    }
}
