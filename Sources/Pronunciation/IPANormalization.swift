public import Locales
import Foundation

/// Rewrites the IPA people type into the symbols eSpeak NG writes: `g` → `ɡ`,
/// ASCII `'` → `ˈ`, tie bars dropped, `ɝ` → `ɜː` in English, and so on.
///
/// The rules are data (`ipa-normalize.tsv`: language or `*`, from, to; `∅`
/// deletes). A rule applies only where the table has no symbol at least as
/// long, so what espeak itself writes (`n̩`, `tʃ`) is never rewritten.
public struct IPANormalization: Sendable, Equatable {
    /// One rewrite.
    public struct Rule: Sendable, Equatable {
        /// What a person may type.
        public var from: String
        /// What espeak writes instead; empty to delete.
        public var to: String

        /// Creates a rule.
        public init(from: String, to: String) {
            self.from = from
            self.to = to
        }
    }

    /// The rules in force, by what they replace.
    let replacements: [String: [Unicode.Scalar]]
    /// The longest `from`, in Unicode scalars.
    let longest: Int

    /// The data file's name.
    public static let fileName = "ipa-normalize.tsv"
    /// Written in the `to` column for "delete".
    static let deletion = "∅"

    /// Creates a normalization from rules; a later rule for the same text wins.
    public init(rules: [Rule]) {
        var table: [String: [Unicode.Scalar]] = [:]
        for rule in rules { table[rule.from] = Array(rule.to.unicodeScalars) }
        replacements = table
        longest = rules.map { $0.from.unicodeScalars.count }.max() ?? 0
    }

    /// Parses the rules of `ipa-normalize.tsv` that apply to `language`.
    public init(parsing text: String, path: String, language: String) throws {
        let rules = try DataFile.rows(of: text, path: path).compactMap { row -> Rule? in
            guard row.fields.count == 3, !row.fields[1].isEmpty, !row.fields[2].isEmpty else {
                throw DataFileError(path: path, line: row.line,
                                    message: "expected language (or *), what is typed and what espeak writes (∅ to delete), separated by tabs")
            }
            guard row.fields[0] == "*" || row.fields[0] == language else { return nil }
            return Rule(from: row.fields[1], to: row.fields[2] == Self.deletion ? "" : row.fields[2])
        }
        self.init(rules: rules)
    }

    /// Loads the shipped rules for `language`, then the user's file of the same name over them.
    public static func load(language: String, from directories: DataDirectories) throws -> IPANormalization {
        var rules: [Rule] = []
        for directory in directories.layered {
            let path = (directory as NSString).appendingPathComponent(fileName)
            guard FileManager.default.fileExists(atPath: path) else { continue }
            rules += try IPANormalization(parsing: DataFile.read(path), path: path, language: language).rules
        }
        return IPANormalization(rules: rules)
    }

    /// The rules, for layering.
    var rules: [Rule] {
        replacements.map { Rule(from: $0.key, to: String(String.UnicodeScalarView($0.value))) }
    }

    /// The longest rule that matches `scalars` at `index`: how many scalars it replaces, and with what.
    func match(in scalars: ArraySlice<Unicode.Scalar>, at index: Int) -> (length: Int, replacement: [Unicode.Scalar])? {
        for length in stride(from: min(longest, scalars.endIndex - index), through: 1, by: -1) {
            let key = String(String.UnicodeScalarView(scalars[index..<index + length]))
            if let replacement = replacements[key] { return (length, replacement) }
        }
        return nil
    }
}
