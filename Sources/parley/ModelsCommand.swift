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
            Whisper model (base, 75 MB, checked by SHA-256); add a larger one of your own \
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
                try StandardOutput.print(String(decoding: try encoder.encode(rows), as: UTF8.self))
                return
            }
            let table = TextTable(header: ["engine", "model", "languages", "size", "verified", "place"])
            for row in rows {
                let languages = row.languages.count > 4 ? "\(row.languages.count) languages" : row.languages.joined(separator: ", ")
                table.add([row.engine, row.name, languages, megabytes(row.bytes), row.verified, row.path])
            }
            try StandardOutput.print(table.render(), terminator: "")
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
            A Whisper model's float weights are stored as int8, the form the worker computes \
            in: half the disk, and no float copy in memory while the worker loads them. The \
            int8 weights are kept only when they compute exactly what the model's own weights \
            compute (checked on a test signal); otherwise, or with --keep-weights, the weights \
            are copied as they are. Their SHA-256 is recorded beside them and checked every \
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

    @Flag(help: "Copy a Whisper model's weights as they are, without storing float weights as int8.")
    var keepWeights = false

    func run() async throws {
        try await reportingFailure {
            let source = (directory as NSString).expandingTildeInPath
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: source, isDirectory: &isFolder) else {
                throw ValidationError("there is no \(source); give the folder the model's files are in")
            }
            guard isFolder.boolValue else {
                throw ValidationError("\(source) is a file; give the folder the model's files are in")
            }
            let models = try common.directories().models
            if WhisperModelFolder.looksLikeModel(source) {
                if locale != nil {
                    throw ValidationError("--locale is for PocketSphinx models; a Whisper model serves every language it was trained on")
                }
                try addWhisper(source, into: models)
            } else if let tag = locale.flatMap(LocaleTag.init), tag.region != nil,
                      ModelRegistry.model(in: source, locale: tag) != nil {
                if name != nil { throw ValidationError("--name is for Whisper models; a PocketSphinx model is installed under its locale, \(tag)") }
                if keepWeights { throw ValidationError("--keep-weights is for Whisper models; a PocketSphinx model is always copied as it is") }
                try install(source, as: "\(models)/\(tag)")
                try StandardOutput.print("added the PocketSphinx model for \(tag) at \(models)/\(tag)")
            } else if locale != nil, locale.flatMap(LocaleTag.init)?.region == nil {
                throw ValidationError("--locale takes a locale with a region, such as fr-FR")
            } else {
                throw ModelFolderRejected(path: source, isPocketSphinxWithoutLocale: locale == nil)
            }
        }
    }

    private func addWhisper(_ source: String, into models: String) throws {
        let target = "\(models)/\(name ?? (source as NSString).lastPathComponent)"
        let installation = whisperInstallation(try common.directories())
        var stored = "weights copied as they are"
        var digest = ""
        try install(source, as: target) { staged in
            if !keepWeights { stored = try storeAsInt8(source: source, staged: staged, installation) }
            digest = try sha256(of: "\(staged)/model.bin")
            try (digest + "\n").write(toFile: "\(staged)/\(WhisperModelFolder.recordedDigestFile)", atomically: true, encoding: .utf8)
        }
        let languages = WhisperModelFolder(path: target).languages()
        try StandardOutput.print("added the Whisper model \((target as NSString).lastPathComponent) (\(languages.count) languages, "
              + "\(stored), SHA-256 \(digest)) at \(target)")
    }

    /// Replaces the staged copy's float weights by int8 ones when they compute the same; says what was stored.
    private func storeAsInt8(source: String, staged: String, _ installation: WhisperInstallation) throws -> String {
        guard FileManager.default.isExecutableFile(atPath: installation.python),
              FileManager.default.fileExists(atPath: installation.converter) else {
            return "weights copied as they are: the Whisper environment that stores them as int8 is not installed"
        }
        let converted = "\(staged).int8"
        defer { try? FileManager.default.removeItem(atPath: converted) }
        let conversion = try runTool([installation.python, installation.converter, "convert", source, converted])
        switch conversion.status {
        case 0: break
        case 3: return "weights copied as they are: they are int8 already"
        default: return "weights copied as they are: \(conversion.sentence)"
        }
        let comparison = try runTool([installation.python, installation.converter, "compare", source, converted])
        switch comparison.status {
        case 0: break
        case 1: return "weights copied as they are: stored as int8 they would not compute the same (\(comparison.sentence))"
        default: return "weights copied as they are: \(comparison.sentence)"
        }
        let before = (try? FileManager.default.attributesOfItem(atPath: "\(source)/model.bin")[.size] as? Int) ?? 0
        let after = (try? FileManager.default.attributesOfItem(atPath: "\(converted)/model.bin")[.size] as? Int) ?? 0
        try FileManager.default.removeItem(atPath: "\(staged)/model.bin")
        try FileManager.default.moveItem(atPath: "\(converted)/model.bin", toPath: "\(staged)/model.bin")
        return "weights stored as int8: \(megabytes(after)) instead of \(megabytes(before))"
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

/// Runs a tool to its end: its exit status and the last line it wrote on stderr, without its `int8_weights: ` prefix.
func runTool(_ arguments: [String]) throws -> (status: Int32, sentence: String) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: arguments[0])
    process.arguments = Array(arguments.dropFirst())
    let errors = Pipe()
    process.standardError = errors
    process.standardOutput = FileHandle.nullDevice
    try process.run()
    let text = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    let last = text.split(separator: "\n").last.map(String.init) ?? "it ended with status \(process.terminationStatus)"
    return (process.terminationStatus, last.hasPrefix("int8_weights: ") ? String(last.dropFirst(14)) : last)
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
