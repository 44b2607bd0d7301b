public import Locales
import Foundation

/// IPA symbols and the eSpeak NG phoneme mnemonics that say them, for one language.
///
/// Derived from the installed espeak itself (`parley dict build-tables`) and
/// shipped as `ipa-<language>.tsv`: each row pairs an IPA symbol, as espeak
/// writes it, with the mnemonic espeak most often writes for it.
public struct IPASymbolTable: Sendable, Equatable {
    /// One IPA symbol and its mnemonic.
    public struct Row: Sendable, Equatable {
        /// The IPA symbol, possibly several characters (`ɑːɹ`, `tʃ`).
        public var ipa: String
        /// The eSpeak NG mnemonic (`A@`, `tS`).
        public var mnemonic: String
        /// How often the pair was seen while deriving the table.
        public var count: Int
        /// The espeak voice the pair was seen in.
        public var voice: String

        /// Creates a row.
        public init(ipa: String, mnemonic: String, count: Int, voice: String) {
            self.ipa = ipa
            self.mnemonic = mnemonic
            self.count = count
            self.voice = voice
        }
    }

    /// The language code, e.g. `en`.
    public let language: String
    /// The rows, most frequent first.
    public let rows: [Row]
    /// IPA symbol → mnemonic.
    let mnemonicByIPA: [String: String]
    /// Every mnemonic the table can produce.
    let mnemonics: Set<String>
    /// The longest IPA symbol, in Unicode scalars.
    let longestSymbol: Int

    /// Creates a table from rows; a later row for the same IPA symbol is ignored.
    public init(language: String, rows: [Row]) {
        var byIPA: [String: String] = [:]
        var kept: [Row] = []
        for row in rows where byIPA[row.ipa] == nil {
            byIPA[row.ipa] = row.mnemonic
            kept.append(row)
        }
        self.language = language
        self.rows = kept
        mnemonicByIPA = byIPA
        mnemonics = Set(kept.map(\.mnemonic))
        longestSymbol = kept.map { $0.ipa.unicodeScalars.count }.max() ?? 0
    }

    /// The file name of a language's table in a data directory.
    public static func fileName(for language: String) -> String { "ipa-\(language).tsv" }

    /// Parses a table file's text; `path` names it in errors.
    public init(parsing text: String, path: String, language: String) throws {
        let rows = try DataFile.rows(of: text, path: path).map { row -> Row in
            guard (3...4).contains(row.fields.count), let count = Int(row.fields[2]),
                  !row.fields[0].isEmpty, !row.fields[1].isEmpty else {
                throw DataFileError(path: path, line: row.line,
                                    message: "expected IPA, mnemonic, count and voice separated by tabs")
            }
            return Row(ipa: row.fields[0], mnemonic: row.fields[1], count: count,
                       voice: row.fields.count == 4 ? row.fields[3] : "")
        }
        self.init(language: language, rows: rows)
    }

    /// Loads a language's table: the user's copy if there is one, else the shipped one.
    public static func load(language: String, from directories: DataDirectories) throws -> IPASymbolTable {
        let name = fileName(for: language)
        let candidates = [directories.user, directories.shipped].map { ($0 as NSString).appendingPathComponent(name) }
        guard let path = candidates.first(where: { FileManager.default.fileExists(atPath: $0) }) else {
            throw PronunciationError.noSymbolTable(language: language, path: candidates[1])
        }
        return try IPASymbolTable(parsing: DataFile.read(path), path: path, language: language)
    }

    /// The mnemonic for an IPA symbol, if the table has it.
    public func mnemonic(for ipa: String) -> String? { mnemonicByIPA[ipa] }

    /// The table as file text, with `header` lines as comments first.
    public func serialized(header: [String]) -> String {
        let comments = header.map { "# \($0)\n" }.joined()
        return comments + rows.map { "\($0.ipa)\t\($0.mnemonic)\t\($0.count)\t\($0.voice)\n" }.joined()
    }
}
