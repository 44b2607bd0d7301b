import Foundation
import Testing
import TestSupport

/// Whisper model folders made for the models tests from the installed whisper-base.
enum ModelFixtures {
    /// The files of a CTranslate2 Whisper model.
    static let files = ["config.json", "model.bin", "tokenizer.json", "vocabulary.txt"]

    /// A copy of the installed model at `folder`: real files (hard links where the file system allows).
    static func copy(to folder: URL) throws {
        let manager = FileManager.default
        try manager.createDirectory(at: folder, withIntermediateDirectories: true)
        for file in files {
            let from = "\(WhisperRecognitionTests.installedModel)/\(file)", to = folder.appendingPathComponent(file).path
            if (try? manager.linkItem(atPath: from, toPath: to)) == nil { try manager.copyItem(atPath: from, toPath: to) }
        }
    }

    /// A folder whose files are links to the installed model's, for models placed by hand.
    static func linked(at folder: URL, except: Set<String> = []) throws {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        for file in files where !except.contains(file) {
            try FileManager.default.createSymbolicLink(atPath: folder.appendingPathComponent(file).path,
                                                       withDestinationPath: "\(WhisperRecognitionTests.installedModel)/\(file)")
        }
    }

    /// Writes the installed model's config.json with `lang_ids` replaced.
    static func writeConfiguration(to folder: URL, languageIDs: [Int]) throws {
        let data = try Data(contentsOf: URL(fileURLWithPath: "\(WhisperRecognitionTests.installedModel)/config.json"))
        var configuration = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        configuration["lang_ids"] = languageIDs
        let file = folder.appendingPathComponent("config.json")
        try? FileManager.default.removeItem(at: file)
        try JSONSerialization.data(withJSONObject: configuration).write(to: file)
    }

    /// Replaces one file of `folder` by `data`.
    static func replace(_ file: String, in folder: URL, with data: Data) throws {
        let path = folder.appendingPathComponent(file)
        try? FileManager.default.removeItem(at: path)
        try data.write(to: path)
    }

    /// Every entry of a folder, hidden ones included.
    static func entries(_ folder: URL) throws -> Set<String> {
        Set(try FileManager.default.contentsOfDirectory(atPath: folder.path))
    }

    /// Runs the built `parley` with `arguments` from the folder `directory`.
    static func parley(in directory: URL, _ arguments: [String]) throws -> ProcessRunner.Output {
        try ProcessRunner.run(["/bin/sh", "-c", "cd \"$0\" && exec \"$@\"", directory.path, ProcessRunner.parleyBinary] + arguments)
    }
}
