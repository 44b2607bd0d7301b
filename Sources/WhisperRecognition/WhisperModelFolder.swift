import Foundation
import Locales
import ParleyCore

/// A Whisper model in the CTranslate2 format: a folder with `model.bin`,
/// `config.json` and the tokenizer (`tokenizer.json` or `vocabulary.txt`).
public struct WhisperModelFolder: Sendable, Equatable {
    /// The folder.
    public var path: String
    /// The SHA-256 that `model.bin` must have, when pinned (Parley's own models, or
    /// recorded by `parley models add`); the worker refuses a file that differs.
    public var pinnedSHA256: String?

    /// Creates a folder description.
    public init(path: String, pinnedSHA256: String? = nil) {
        self.path = path
        self.pinnedSHA256 = pinnedSHA256
    }

    /// The folder's name, which names the model (`whisper-base`).
    public var name: String { (path as NSString).lastPathComponent }

    /// The weights file.
    public var weights: String { "\(path)/model.bin" }

    /// Whether `path` holds the files of a CTranslate2 Whisper model.
    public static func looksLikeModel(_ path: String) -> Bool {
        let files = FileManager.default
        return files.fileExists(atPath: "\(path)/model.bin") && files.fileExists(atPath: "\(path)/config.json")
            && (files.fileExists(atPath: "\(path)/tokenizer.json") || files.fileExists(atPath: "\(path)/vocabulary.txt"))
    }

    /// The name of the file, kept in a model folder, that records the SHA-256 of a model a
    /// person added (`parley models add`).
    public static let recordedDigestFile = "parley-sha256.txt"

    /// The digest recorded in the folder by `parley models add`, if any.
    var recordedSHA256: String? {
        (try? String(contentsOfFile: "\(path)/\(Self.recordedDigestFile)", encoding: .utf8))
            .map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
            .flatMap { $0.isEmpty ? nil : $0 }
    }
}

/// A model Parley installs itself, pinned by content in `speech-models.tsv`.
public struct PinnedSpeechModel: Sendable, Equatable {
    /// The folder name under the models directory.
    public var name: String
    /// The engine (`whisper`).
    public var engine: String
    /// Size of the installed weights in bytes.
    public var bytes: Int
    /// SHA-256 of the installed weights (Whisper's are stored as int8; the published
    /// file's digest, which only the installer checks, is in the table's later columns).
    public var sha256: String
    /// The registry packages that carry it.
    public var packages: [String]
    /// Size and SHA-256 of the model.bin the packages carry, when the table gives them
    /// (Whisper's published weights, before they are stored as int8).
    public var publishedBytes: Int?
    public var publishedSHA256: String?

    /// Reads `speech-models.tsv`: name, engine, bytes, sha256, packages, then the published
    /// file's bytes and sha256 (tab-separated).
    public static func load(_ path: String) -> [PinnedSpeechModel] {
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { return [] }
        return DataFile.lines(of: text).compactMap { line in
            guard !line.hasPrefix("#") else { return nil }
            let fields = line.split(separator: "\t").map(String.init)
            guard fields.count >= 5, let bytes = Int(fields[2]) else { return nil }
            return PinnedSpeechModel(name: fields[0], engine: fields[1], bytes: bytes, sha256: fields[3],
                                     packages: fields[4].split(separator: ",").map(String.init),
                                     publishedBytes: fields.count > 6 ? Int(fields[5]) : nil,
                                     publishedSHA256: fields.count > 6 ? fields[6] : nil)
        }
    }
}

/// Where the Whisper worker's parts are: its Python environment, its script,
/// and the models, found from Parley's data directories.
public struct WhisperInstallation: Sendable, Equatable {
    /// The worker's Python interpreter.
    public var python: String
    /// The worker script.
    public var script: String
    /// Installed models whose files look usable, best first (the pinned default before a person's own).
    public var models: [WhisperModelFolder]
    /// Installed models that cannot be used, each with the sentence that says why.
    public var unusable: [UnusableWhisperModel] = []

    /// The tool that stores a model's float weights as int8 (`worker/int8_weights.py`).
    public var converter: String {
        ((script as NSString).deletingLastPathComponent as NSString).appendingPathComponent("int8_weights.py")
    }

    /// How a person installs what is missing.
    public static let remedy = "run `make models` in Parley's source tree (scripts/install-whisper.sh) "
        + "to install the Whisper environment and model, or see `parley models`"

    /// Looks in the models directory and beside the shipped data.
    /// - Parameters:
    ///   - shipped: the shipped data directory (`…/share/parley/dictionaries`, or the source tree's).
    ///   - models: the models directory (`--models`, or XDG data).
    ///   - dataHome: `$XDG_DATA_HOME/parley`, where the environment is installed.
    public static func discover(shipped: String, models: String, dataHome: String,
                                environment: [String: String]? = nil) -> WhisperInstallation {
        let environment = environment ?? ProcessInfo.processInfo.environment
        let root = (shipped as NSString).deletingLastPathComponent
        let pinned = PinnedSpeechModel.load("\(shipped)/speech-models.tsv").filter { $0.engine == "whisper" }
        var found: [WhisperModelFolder] = []
        for directory in [models, "\(root)/models"] {
            found += folders(in: directory, pinned: pinned).filter { candidate in !found.contains { $0.name == candidate.name } }
        }
        let python = environment["PARLEY_WHISPER_PYTHON"].flatMap { $0.isEmpty ? nil : $0 }
            ?? "\(dataHome)/whisper-env/bin/python3"
        var installation = WhisperInstallation(python: python, script: "\(root)/worker/whisper_worker.py", models: [])
        for folder in found {
            if case .unusable(let problem) = folder.inspect() {
                installation.unusable.append(UnusableWhisperModel(folder: folder, problem: problem))
            } else {
                installation.models.append(folder)
            }
        }
        return installation
    }

    /// The Whisper model folders in `directory`: pinned ones first, in the table's order. Hidden
    /// folders (where `parley models add` builds a model) and the leftovers of an interrupted
    /// add (`NAME.adding-PID`) are no models.
    static func folders(in directory: String, pinned: [PinnedSpeechModel]) -> [WhisperModelFolder] {
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []).sorted()
            .filter { !$0.hasPrefix(".") && !WhisperModelFolder.isAddLeftover($0) }
        let models = names.map { "\(directory)/\($0)" }.filter(WhisperModelFolder.looksLikeModel).map { path in
            var folder = WhisperModelFolder(path: path)
            folder.pinnedSHA256 = pinned.first { $0.name == folder.name }?.sha256 ?? folder.recordedSHA256
            return folder
        }
        let rank = { (folder: WhisperModelFolder) in pinned.firstIndex { $0.name == folder.name } ?? pinned.count }
        return models.enumerated().sorted { (rank($0.element), $0.offset) < (rank($1.element), $1.offset) }.map(\.element)
    }

    /// What is missing for Whisper to run, in one sentence; nil when it can start.
    public var problem: String? {
        if !FileManager.default.isExecutableFile(atPath: python) {
            return "the Whisper worker's Python environment (\(python))"
        }
        if !FileManager.default.fileExists(atPath: script) { return "the Whisper worker script (\(script))" }
        if models.isEmpty, let first = unusable.first { return "a usable Whisper model (\(first.problem))" }
        if models.isEmpty { return "a Whisper model" }
        return nil
    }

    /// The launch settings for the best model; throws `notInstalled` saying what is missing.
    public func launch(threads: Int = 2) throws -> WhisperWorker.Launch {
        if let problem { throw RecognitionError.notInstalled(what: problem, remedy: Self.remedy) }
        return WhisperWorker.Launch(python: python, script: script, model: models[0], threads: threads)
    }
}

/// An installed Whisper model that cannot be used, and why.
public struct UnusableWhisperModel: Sendable, Equatable {
    /// The model's folder.
    public var folder: WhisperModelFolder
    /// One sentence naming the file at fault.
    public var problem: String
}

extension WhisperModelFolder {
    /// Whether a models folder entry is the leftover of an interrupted `parley models add`
    /// from before staging folders were hidden: `NAME.adding-PID`.
    public static func isAddLeftover(_ name: String) -> Bool {
        guard let range = name.range(of: ".adding-", options: .backwards) else { return false }
        let digits = name[range.upperBound...]
        return !digits.isEmpty && digits.allSatisfy { $0.isASCII && $0.isNumber }
    }
}
