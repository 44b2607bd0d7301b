import Foundation
import Locales

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
