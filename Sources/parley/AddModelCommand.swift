import ArgumentParser
import Foundation
import Locales
import ParleyCore
import PocketSphinxRecognition
import WhisperRecognition

/// `parley models add DIR`.
struct AddModel: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "add",
        abstract: "Copy a speech model into the models directory.",
        discussion: """
            DIR is a CTranslate2 Whisper model folder (model.bin, config.json, and tokenizer.json \
            or vocabulary.txt) or a PocketSphinx model folder (an acoustic model folder with mdef, \
            a .lm.bin/.lm/.arpa language model and a .dict pronunciation dictionary; give --locale). \
            Only real files are copied: a link that leads out of DIR is refused. A Whisper model is \
            installed only once its files parse and it loads in the Whisper worker. Its float \
            weights are stored as int8, the form the worker computes in: half the disk, and no \
            float copy in memory while the worker loads them. The int8 weights are kept only when \
            they compute exactly what the model's own weights compute (checked on a test signal); \
            otherwise, or with --keep-weights, the weights are copied as they are. Their SHA-256 is \
            recorded beside them and checked every time the worker starts. A model is built beside \
            the models it may replace and renamed into place; nothing else is removed.
            """)

    @OptionGroup var common: CommonOptions

    @Argument(help: ArgumentHelp("The model folder.", valueName: "dir"))
    var directory: String

    @Option(help: ArgumentHelp("The name to install a Whisper model under (default: the folder's name).", valueName: "name"))
    var name: String?

    @Option(help: ArgumentHelp("The locale a PocketSphinx model recognizes, e.g. fr-FR.", valueName: "locale"))
    var locale: String?

    @Flag(help: "Replace an installed model of the same name.")
    var replace = false

    @Flag(help: "Copy a Whisper model's weights as they are, without storing float weights as int8.")
    var keepWeights = false

    func validate() throws {
        if let name, let problem = ModelFolderInstaller.nameProblem(name) { throw ValidationError(problem) }
    }

    func run() async throws {
        try await reportingFailure {
            let source = absolutePath((directory as NSString).expandingTildeInPath)
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: source, isDirectory: &isFolder) else {
                throw ValidationError("there is no \(source); give the folder the model's files are in")
            }
            guard isFolder.boolValue else {
                throw ValidationError("\(source) is a file; give the folder the model's files are in")
            }
            let directories = try common.directories()
            if WhisperModelFolder.looksLikeModel(source) {
                if locale != nil {
                    throw ValidationError("--locale is for PocketSphinx models; a Whisper model serves every language it was trained on")
                }
                let installer = try prepared(directories.models, name: name ?? (source as NSString).lastPathComponent, source: source)
                try await WhisperModelAddition(source: source, installer: installer, replace: replace, keepWeights: keepWeights,
                                               installation: whisperInstallation(directories)).run()
            } else if let tag = locale.flatMap(LocaleTag.init), tag.region != nil,
                      PocketSphinxModelRegistry.model(in: source, locale: tag) != nil {
                if name != nil { throw ValidationError("--name is for Whisper models; a PocketSphinx model is installed under its locale, \(tag)") }
                if keepWeights { throw ValidationError("--keep-weights is for Whisper models; a PocketSphinx model is always copied as it is") }
                let installer = try prepared(directories.models, name: tag.description, source: source)
                try await installer.install(from: source, replace: replace)
                try StandardOutput.print("added the PocketSphinx model for \(tag) at \(installer.target)")
            } else if locale != nil, locale.flatMap(LocaleTag.init)?.region == nil {
                throw ValidationError("--locale takes a locale with a region, such as fr-FR")
            } else {
                throw ModelFolderRejected(path: source, isPocketSphinxWithoutLocale: locale == nil)
            }
        }
    }

    /// The installer for `name` in `models`, once the name, the models folder and the source's
    /// files are known to be usable; leftovers of interrupted adds are cleaned first.
    private func prepared(_ models: String, name: String, source: String) throws -> ModelFolderInstaller {
        if let problem = ModelFolderInstaller.nameProblem(name) { throw ValidationError("\(problem); give --name") }
        try ModelFolderInstaller.prepareModelsFolder(models)
        ModelLeftovers.clean(models)
        if let realModels = ModelSourceFiles.resolved(models), let realSource = ModelSourceFiles.resolved(source),
           realModels == realSource || realModels.hasPrefix(realSource + "/") {
            throw ModelInstallFailure("the models folder \(models) is inside \(source); give the folder that holds only the model")
        }
        if let problem = ModelSourceFiles.problem(in: source) {
            throw ModelInstallFailure("\(problem); nothing was installed")
        }
        return ModelFolderInstaller(models: models, name: name)
    }
}

/// A folder that is no model Parley knows.
struct ModelFolderRejected: Error, CustomStringConvertible {
    var path: String
    var isPocketSphinxWithoutLocale: Bool
    var description: String {
        "\(path) is neither a CTranslate2 Whisper model (model.bin, config.json, tokenizer.json or vocabulary.txt) "
            + "nor a PocketSphinx model (an acoustic folder with mdef, a language model and a .dict)"
            + (isPocketSphinxWithoutLocale ? "; for a PocketSphinx model give --locale" : "")
    }
}

/// `path` from the root, with `.` and `..` worked out on the path's text (`..` from inside
/// `/a/b/c` is `/a/b`), so the folder's name is its real last component.
func absolutePath(_ path: String) -> String {
    let full = path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
    var components: [Substring] = []
    for component in full.split(separator: "/") where component != "." {
        if component == ".." { _ = components.popLast() } else { components.append(component) }
    }
    return "/" + components.joined(separator: "/")
}
