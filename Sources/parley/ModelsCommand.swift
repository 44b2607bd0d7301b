import ArgumentParser
import ChildProcesses
import Foundation
import Locales
import ParleyCore
import PocketSphinxRecognition
import WhisperRecognition

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
    /// "yes" (the weights have the pinned or recorded SHA-256), "NO: " and why (the SHA-256
    /// differs, or the model's files cannot be used), or "not pinned".
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
            ModelLeftovers.clean(directories.models)
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
        let installation = whisperInstallation(directories)
        let unusable = installation.unusable.map { model in
            ModelRow(engine: "whisper", name: model.folder.name, languages: [], bytes: folderBytes(model.folder.path),
                     path: model.folder.path, verified: "NO: \(model.problem)")
        }
        return installation.models.map { model in
            let verified: String
            if let pinned = model.pinnedSHA256 {
                verified = (try? sha256(of: model.weights)) == pinned ? "yes" : "NO: SHA-256 differs"
            } else {
                verified = "not pinned"
            }
            return ModelRow(engine: "whisper", name: model.name, languages: model.languages(),
                            bytes: folderBytes(model.path), path: model.path, verified: verified)
        } + unusable
    }

    private func pocketSphinxRows(_ directories: DataDirectories) -> [ModelRow] {
        let registry = PocketSphinxModelRegistry(userDirectory: directories.models)
        return registry.supportedLocales.compactMap { registry.model(for: $0) }.map { model in
            let folder = (model.acousticModel as NSString).deletingLastPathComponent
            return ModelRow(engine: "pocketsphinx", name: model.locale.description, languages: [model.locale.description],
                            bytes: folderBytes(folder), path: folder,
                            verified: folder.hasPrefix("/usr/share/") ? "Debian package" : "not pinned")
        }
    }
}

/// Runs a tool to its end: its exit status and the last line it wrote on stderr, without its `int8_weights: ` prefix.
func runTool(_ arguments: [String]) throws -> (status: Int32, sentence: String) {
    let run = try ToolRun(arguments, name: (arguments[0] as NSString).lastPathComponent, timeout: 3600)
    let last = run.errors.lastLine.isEmpty ? "it ended with status \(run.status)" : run.errors.lastLine
    return (run.status, last.hasPrefix("int8_weights: ") ? String(last.dropFirst(14)) : last)
}

/// The SHA-256 of a file, as lower-case hex (`sha256sum`, part of every Debian system).
func sha256(of path: String) throws -> String {
    let run = try? ToolRun(["/usr/bin/sha256sum", path], name: "sha256sum", timeout: 3600)
    guard let run, run.status == 0, let digest = run.outputText.split(separator: " ").first else {
        throw ModelInstallFailure("the SHA-256 of \(path) could not be computed")
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
