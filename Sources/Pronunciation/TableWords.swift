public import Locales
import Foundation

/// The real word lists IPA tables are derived from and checked against:
/// English from the CMU pronouncing dictionary, other languages from
/// `wordlists/<language>.txt` in the data directory (Spanish: Apertium's
/// generator, see `scripts/spanish-words.sh`).
///
/// Every tenth word is held out of the derivation, so the round trip is
/// measured on words the table never saw.
public enum TableWords {
    /// Every word of the language's list, in order.
    public static func all(language: String, directories: DataDirectories,
                           cmuPath: String = CMUDictionary.defaultPath) throws -> [String] {
        if language == "en" { return try CMUDictionary.load(path: cmuPath).plainWords }
        let path = "\(directories.shipped)/wordlists/\(language).txt"
        guard FileManager.default.fileExists(atPath: path) else {
            throw PronunciationError.fileFailure(path: path, reason: "no word list to derive the \(language) table from; add one word per line")
        }
        return try DataFile.rows(of: try DataFile.read(path), path: path).map { $0.fields[0] }
    }

    /// The words a table is derived from: all but every tenth.
    public static func derivation(_ words: [String]) -> [String] {
        words.enumerated().filter { $0.offset % 10 != 9 }.map(\.element)
    }

    /// The words held out for the round trip: every tenth.
    public static func heldOut(_ words: [String]) -> [String] {
        words.enumerated().filter { $0.offset % 10 == 9 }.map(\.element)
    }
}
