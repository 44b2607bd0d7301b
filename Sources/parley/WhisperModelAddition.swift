import Foundation
import ParleyCore
import WhisperRecognition

/// Adding one Whisper model: its files are checked, copied, stored as int8 when that computes
/// the same, loaded once in the Whisper worker, and only then put in place.
struct WhisperModelAddition {
    /// The model folder a person gave.
    var source: String
    /// Where it goes.
    var installer: ModelFolderInstaller
    /// Whether an installed model of the same name may be replaced.
    var replace: Bool
    /// Whether the weights are copied as they are.
    var keepWeights: Bool
    /// The Whisper worker's parts, which convert and load the model.
    var installation: WhisperInstallation

    /// Installs the model and says so on stdout; throws one sentence, with nothing installed, when it cannot be used.
    func run() async throws {
        if case .unusable(let problem) = WhisperModelFolder(path: source).inspect() {
            throw ModelInstallFailure("\(source) is not a usable Whisper model: \(problem); nothing was installed")
        }
        if let problem = Self.tokenizerProblem(source) {
            throw ModelInstallFailure("\(source) is not a usable Whisper model: \(problem); nothing was installed")
        }
        guard FileManager.default.isExecutableFile(atPath: installation.python),
              FileManager.default.fileExists(atPath: installation.script) else {
            throw ModelInstallFailure("cannot check that the model loads: the Whisper worker's Python environment "
                                      + "(\(installation.python)) is not installed; run `make models` in Parley's source tree "
                                      + "first; nothing was installed")
        }
        var stored = "weights copied as they are"
        var digest = ""
        var languages: [String] = []
        try await installer.install(from: source, replace: replace) { staged in
            if !keepWeights { stored = try storeAsInt8(staged) }
            digest = try sha256(of: "\(staged)/model.bin")
            try (digest + "\n").write(toFile: "\(staged)/\(WhisperModelFolder.recordedDigestFile)", atomically: false, encoding: .utf8)
            languages = try await load(staged, digest: digest)
        }
        try StandardOutput.print("added the Whisper model \(installer.name) (\(languages.count) languages, "
              + "\(stored), SHA-256 \(digest)) at \(installer.target)")
    }

    /// Why `tokenizer.json`, when the folder has one, cannot be used; nil when it parses as a JSON object.
    static func tokenizerProblem(_ folder: String) -> String? {
        let file = "\(folder)/tokenizer.json"
        guard FileManager.default.fileExists(atPath: file) else { return nil }
        guard let data = FileManager.default.contents(atPath: file) else { return "\(file) cannot be read" }
        guard (try? JSONSerialization.jsonObject(with: data)) is [String: Any] else { return "\(file) is not a JSON object" }
        return nil
    }

    /// Starts the Whisper worker on the staged copy, checking its recorded SHA-256, and stops it;
    /// the languages it knows, or one sentence saying why it does not load.
    private func load(_ staged: String, digest: String) async throws -> [String] {
        let worker = WhisperWorker(launch: WhisperWorker.Launch(
            python: installation.python, script: installation.script,
            model: WhisperModelFolder(path: staged, pinnedSHA256: digest), threads: 1))
        do {
            let languages = try await worker.start()
            await worker.shutdown()
            return languages
        } catch {
            await worker.shutdown()
            var reason = String(describing: error)
            if case .modelUnusable(_, let said)? = error as? RecognitionError { reason = said }
            throw ModelInstallFailure("\(source) does not load in the Whisper worker: "
                                      + reason.replacingOccurrences(of: staged, with: source))
        }
    }

    /// Replaces the staged copy's float weights by int8 ones when they compute the same; says what was stored.
    private func storeAsInt8(_ staged: String) throws -> String {
        let converted = "\(staged)/.int8-weights"
        defer { try? FileManager.default.removeItem(atPath: converted) }
        let conversion = try runTool([installation.python, installation.converter, "convert", staged, converted])
        switch conversion.status {
        case 0: break
        case 3: return "weights copied as they are: they are int8 already"
        default: return "weights copied as they are: \(conversion.sentence)"
        }
        let comparison = try runTool([installation.python, installation.converter, "compare", staged, converted])
        switch comparison.status {
        case 0: break
        case 1: return "weights copied as they are: stored as int8 they would not compute the same (\(comparison.sentence))"
        default: return "weights copied as they are: \(comparison.sentence)"
        }
        let before = (try? FileManager.default.attributesOfItem(atPath: "\(staged)/model.bin")[.size] as? Int) ?? 0
        let after = (try? FileManager.default.attributesOfItem(atPath: "\(converted)/model.bin")[.size] as? Int) ?? 0
        guard rename("\(converted)/model.bin", "\(staged)/model.bin") == 0 else {
            throw ModelInstallFailure("cannot put the int8 weights in \(staged): \(systemReason(errno))")
        }
        return "weights stored as int8: \(megabytes(after)) instead of \(megabytes(before))"
    }
}
