import Synthesis
import Foundation
import Locales
import ParleyCore
@testable import Pronunciation

/// Data directories for tests: the source tree's shipped data and a fresh user directory.
enum TestData {
    /// The folder of this test process's directories, removed when the process exits.
    private static let root: String = {
        let path = NSTemporaryDirectory() + "parley-pronunciation-\(ProcessInfo.processInfo.processIdentifier)"
        atexit { try? FileManager.default.removeItem(atPath: TestData.root) }
        return path
    }()

    /// A new empty directory under the temporary directory.
    static func temporaryDirectory() throws -> String {
        let path = "\(root)/\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    /// The shipped data of the source tree with an empty user directory of its own.
    static func directories(shipped: String = DataDirectories.sourceTreeDataDirectory) throws -> DataDirectories {
        let user = try temporaryDirectory()
        return DataDirectories(shipped: shipped, user: user, models: user, state: user)
    }

    /// A shipped directory holding copies of the real tables and `dict` as its `en.dict`.
    static func shippedCopy(enDictionary: String) throws -> String {
        let directory = try temporaryDirectory()
        for name in ["ipa-en.tsv", "ipa-es.tsv", "ipa-normalize.tsv", "arpabet-ipa.tsv", "locales.tsv", "locale-priority.tsv"] {
            try FileManager.default.copyItem(atPath: "\(DataDirectories.sourceTreeDataDirectory)/\(name)",
                                             toPath: "\(directory)/\(name)")
        }
        try enDictionary.write(toFile: "\(directory)/en.dict", atomically: true, encoding: .utf8)
        return directory
    }

    /// The real converter for a language.
    static func converter(_ language: String) throws -> IPAConverter {
        try IPAConverter.load(language: language, from: directories())
    }

    /// espeak, confined to the synthesizer's thread.
    static let transcriber: any PhonemeTranscriber = ESpeakSynthesizer()
}
