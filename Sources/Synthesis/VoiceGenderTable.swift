public import ParleyCore
import Locales
import Foundation

/// Which gender each voice has and which espeak variant gives a voice a gender,
/// read from `voice-genders.tsv`.
public struct VoiceGenderTable: Sendable, Equatable {
    /// language (`es`, `en-us` or `*`) → the gender its voice has as installed.
    public private(set) var nativeGenders: [String: VoiceGender]
    /// language → gender → the espeak variant that speaks with that gender.
    public private(set) var variants: [String: [VoiceGender: String]]

    /// The file name in a data directory.
    public static let fileName = "voice-genders.tsv"

    /// Creates a table from known rows.
    public init(nativeGenders: [String: VoiceGender] = [:], variants: [String: [VoiceGender: String]] = [:]) {
        self.nativeGenders = nativeGenders
        self.variants = variants
    }

    /// Parses the text of a `voice-genders.tsv` file; `path` names it in errors.
    public init(parsing text: String, path: String) throws {
        self.init()
        for row in try DataFile.rows(of: text, path: path) {
            guard row.fields.count == 3 else {
                throw DataFileError(path: path, line: row.line,
                                    message: "expected 3 tab-separated fields (language, gender, variant), found \(row.fields.count)")
            }
            guard let gender = VoiceGender(rawValue: row.fields[1]), gender != .unspecified else {
                throw DataFileError(path: path, line: row.line, message: "unknown gender '\(row.fields[1])'; use male or female")
            }
            let language = row.fields[0].lowercased()
            if row.fields[2] == "-" {
                nativeGenders[language] = gender
            } else {
                variants[language, default: [:]][gender] = row.fields[2]
            }
        }
    }

    /// Loads the table from each directory that has one, later ones replacing rows of earlier ones.
    public static func load(from directories: [String]) throws -> VoiceGenderTable {
        var table = VoiceGenderTable()
        for directory in directories {
            let path = (directory as NSString).appendingPathComponent(fileName)
            guard FileManager.default.fileExists(atPath: path) else { continue }
            table = table.merging(try VoiceGenderTable(parsing: DataFile.read(path), path: path))
        }
        return table
    }

    /// The table with `overlay`'s rows replacing rows for the same language and gender.
    public func merging(_ overlay: VoiceGenderTable) -> VoiceGenderTable {
        var merged = self
        merged.nativeGenders.merge(overlay.nativeGenders) { _, new in new }
        for (language, genders) in overlay.variants {
            merged.variants[language, default: [:]].merge(genders) { _, new in new }
        }
        return merged
    }

    /// The gender a voice of these espeak language names speaks with as installed.
    public func nativeGender(ofLanguage names: [String]) -> VoiceGender {
        Self.keys(for: names).lazy.compactMap { nativeGenders[$0] }.first ?? .unspecified
    }

    /// The gender a row names for exactly these languages (not the `*` default), if any.
    public func specificGender(ofLanguage names: [String]) -> VoiceGender? {
        Self.keys(for: names).dropLast().lazy.compactMap { nativeGenders[$0] }.first
    }

    /// The variant that makes a voice of these language names speak as `gender`; nil when none is known.
    public func variant(for gender: VoiceGender, ofLanguage names: [String]) -> String? {
        Self.keys(for: names).lazy.compactMap { variants[$0]?[gender] }.first
    }

    /// Most specific first: each espeak name (`es-419`), its bare language (`es`), then `*`.
    private static func keys(for names: [String]) -> [String] {
        let lowered = names.map { $0.lowercased() }
        let bare = lowered.compactMap { $0.split(separator: "-").first.map(String.init) }
        var seen = Set<String>()
        return (lowered + bare + ["*"]).filter { seen.insert($0).inserted }
    }
}
