import Foundation
import ParleyCore

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
