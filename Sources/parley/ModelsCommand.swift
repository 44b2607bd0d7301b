import ArgumentParser
import Foundation
import Locales
import ParleyCore
import Recognition

/// `parley models`: the installed speech models, and adding one.
struct ModelsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "models",
        abstract: "List the installed speech models, or add one.",
        discussion: """
            Whisper models (CTranslate2 format) serve every language they were trained on; \
            PocketSphinx models serve one locale each. `make models` installs Parley's pinned \
            Whisper model (base, 145 MB, checked by SHA-256); add a larger one of your own \
            (small, medium) for more accuracy at more CPU:

              parley models
              parley models add ~/whisper-small-ct2
              parley models add ~/cmusphinx-fr --locale fr-FR
            """,
        subcommands: [ListModels.self, AddModel.self],
        defaultSubcommand: ListModels.self)
}

/// One installed model, as listed.
struct ModelRow: Encodable {
    var engine: String
    var name: String
    var languages: [String]
    var bytes: Int
    var path: String
    /// "yes" (the weights have the pinned or recorded SHA-256), "NO", or "not pinned".
    var verified: String
}

/// `parley models list`.
struct ListModels: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "list", abstract: "List every installed speech model.")

    @OptionGroup var common: CommonOptions

    @Flag(help: "Print JSON.")
    var json = false

    func run() async throws {
        try await reportingFailure {
            let directories = try common.directories()
            let rows = whisperRows(directories) + pocketSphinxRows(directories)
            if json {
                let encoder = JSONEncoder()
                encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
                print(String(decoding: try encoder.encode(rows), as: UTF8.self))
                return
            }
            let table = TextTable(header: ["engine", "model", "languages", "size", "verified", "place"])
            for row in rows {
                let languages = row.languages.count > 4 ? "\(row.languages.count) languages" : row.languages.joined(separator: ", ")
                table.add([row.engine, row.name, languages, megabytes(row.bytes), row.verified, row.path])
            }
            print(table.render(), terminator: "")
            if rows.allSatisfy({ $0.engine != "whisper" }) {
                printError("no Whisper model is installed; \(WhisperInstallation.remedy)")
            }
        }
    }

    private func whisperRows(_ directories: DataDirectories) -> [ModelRow] {
        whisperInstallation(directories).models.map { model in
            let verified: String
            if let pinned = model.pinnedSHA256 {
                verified = (try? sha256(of: model.weights)) == pinned ? "yes" : "NO: SHA-256 differs"
            } else {
                verified = "not pinned"
            }
            return ModelRow(engine: "whisper", name: model.name, languages: model.languages(),
                            bytes: folderBytes(model.path), path: model.path, verified: verified)
        }
    }

    private func pocketSphinxRows(_ directories: DataDirectories) -> [ModelRow] {
        let registry = ModelRegistry(userDirectory: directories.models)
        return registry.supportedLocales.compactMap { registry.model(for: $0) }.map { model in
            let folder = (model.acousticModel as NSString).deletingLastPathComponent
            return ModelRow(engine: "pocketsphinx", name: model.locale.description, languages: [model.locale.description],
                            bytes: folderBytes(folder), path: folder,
                            verified: folder.hasPrefix("/usr/share/") ? "Debian package" : "not pinned")
        }
    }
}

/// `parley models add DIR`.
struct AddModel: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "add",
        abstract: "Copy a speech model into the models directory.",
        discussion: """
            DIR is a CTranslate2 Whisper model folder (model.bin, config.json, and tokenizer.json \
            or vocabulary.txt) or a PocketSphinx model folder (an acoustic model folder with mdef, \
            a .lm.bin/.lm/.arpa language model and a .dict pronunciation dictionary; give --locale). \
            The SHA-256 of a Whisper model's weights is recorded beside them and checked every \
            time the worker starts.
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

    func run() async throws {
        try await reportingFailure {
            let source = (directory as NSString).expandingTildeInPath
            let models = try common.directories().models
            if WhisperModelFolder.looksLikeModel(source) {
                try addWhisper(source, into: models)
            } else if let tag = locale.flatMap(LocaleTag.init), tag.region != nil,
                      ModelRegistry.model(in: source, locale: tag) != nil {
                try install(source, as: "\(models)/\(tag)")
                print("added the PocketSphinx model for \(tag) at \(models)/\(tag)")
            } else if locale != nil, locale.flatMap(LocaleTag.init)?.region == nil {
                throw ValidationError("--locale takes a locale with a region, such as fr-FR")
            } else {
                throw ModelFolderRejected(path: source, isPocketSphinxWithoutLocale: locale == nil)
            }
        }
    }

    private func addWhisper(_ source: String, into models: String) throws {
        let target = "\(models)/\(name ?? (source as NSString).lastPathComponent)"
        let digest = try sha256(of: "\(source)/model.bin")
        try install(source, as: target) { staged in
            try (digest + "\n").write(toFile: "\(staged)/\(WhisperModelFolder.recordedDigestFile)", atomically: true, encoding: .utf8)
        }
        let languages = WhisperModelFolder(path: target).languages()
        print("added the Whisper model \((target as NSString).lastPathComponent) (\(languages.count) languages, SHA-256 \(digest)) at \(target)")
    }

    /// Copies `source` to a staging folder beside `target`, lets `prepare` add files, then renames it into place.
    private func install(_ source: String, as target: String, prepare: (String) throws -> Void = { _ in }) throws {
        let files = FileManager.default
        if files.fileExists(atPath: target), !replace {
            throw ValidationError("a model is already installed at \(target); add --replace to replace it")
        }
        try files.createDirectory(atPath: (target as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        let staged = "\(target).adding-\(ProcessInfo.processInfo.processIdentifier)"
        try? files.removeItem(atPath: staged)
        do {
            try files.copyItem(atPath: source, toPath: staged)
            try prepare(staged)
            if files.fileExists(atPath: target) { try files.removeItem(atPath: target) }
            try files.moveItem(atPath: staged, toPath: target)
        } catch {
            try? files.removeItem(atPath: staged)
            throw ModelCopyFailed(source: source, target: target, reason: error.localizedDescription)
        }
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

/// Copying a model failed; nothing was installed.
struct ModelCopyFailed: Error, CustomStringConvertible {
    var source: String
    var target: String
    var reason: String
    var description: String { "cannot copy \(source) to \(target): \(reason); nothing was installed" }
}

/// The SHA-256 of a file, as lower-case hex (`sha256sum`, part of every Debian system).
func sha256(of path: String) throws -> String {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/sha256sum")
    process.arguments = [path]
    let output = Pipe()
    process.standardOutput = output
    process.standardError = FileHandle.nullDevice
    try process.run()
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    guard process.terminationStatus == 0, let digest = String(decoding: data, as: UTF8.self).split(separator: " ").first else {
        throw ModelCopyFailed(source: path, target: "", reason: "its SHA-256 could not be computed")
    }
    return String(digest)
}

/// Total size of the regular files under `path`.
func folderBytes(_ path: String) -> Int {
    guard let walker = FileManager.default.enumerator(atPath: path) else { return 0 }
    var total = 0
    while let entry = walker.nextObject() as? String {
        total += (try? FileManager.default.attributesOfItem(atPath: "\(path)/\(entry)"))?[.size] as? Int ?? 0
    }
    return total
}

/// `145.2 MB`.
func megabytes(_ bytes: Int) -> String {
    String(format: "%.1f MB", Double(bytes) / 1_000_000)
}
