import Foundation
import Locales

/// Tidies Apertium's output for one target language, driven by
/// `translation-cleanup.tsv`: Spanish opening marks (¿ ¡), the double spaces
/// Apertium leaves where it dropped a word, a capital first letter.
///
/// ```swift
/// let cleanup = try TranslationCleanup.load(from: directories)
/// cleanup.apply(to: "buenas tardes, cómo está usted?", language: "es")
/// // text "Buenas tardes, ¿cómo está usted?", applied ["opening-mark", "capitalize-first"]
/// ```
public struct TranslationCleanup: Sendable, Equatable {
    /// The data file's name in a data directory.
    public static let fileName = "translation-cleanup.tsv"

    /// One language's rules.
    public struct Rules: Sendable, Equatable {
        /// Whether runs of spaces become one.
        public var collapsesSpaces = false
        /// Whether the first letter is made upper case.
        public var capitalizesFirst = false
        /// Closing mark → opening mark, e.g. `?` → `¿`.
        public var openingMarks: [Character: Character] = [:]
        /// Lower-case words (or phrases) that start a clause after a comma.
        public var clauseWords: [String] = []

        /// Rules that change nothing.
        public init() {}
    }

    /// A cleaned text and the names of the rules that changed it.
    public struct Result: Sendable, Equatable {
        /// The tidied text.
        public var text: String
        /// The rules that changed the text, in the order they ran (`collapse-spaces`, `opening-mark`, `capitalize-first`).
        public var applied: [String]
    }

    /// Rules per ISO 639-1 language code.
    public private(set) var languages: [String: Rules]

    /// A clean-up with `languages`' rules (none: nothing is changed).
    public init(languages: [String: Rules] = [:]) {
        self.languages = languages
    }

    /// Parses a `translation-cleanup.tsv` text; `path` names it in errors.
    public init(parsing text: String, path: String) throws {
        languages = [:]
        for row in try DataFile.rows(of: text, path: path) {
            try add(row, path: path)
        }
    }

    /// The rules in `directories` (later directories add to earlier ones); missing files are skipped.
    public static func load(from directories: [String]) throws -> TranslationCleanup {
        var cleanup = TranslationCleanup()
        for directory in directories {
            let path = (directory as NSString).appendingPathComponent(fileName)
            guard FileManager.default.fileExists(atPath: path) else { continue }
            for row in DataFile.rows(of: try DataFile.read(path)) { try cleanup.add(row, path: path) }
        }
        return cleanup
    }

    /// `text` tidied by `language`'s rules; unchanged when the language has none.
    public func apply(to text: String, language: String) -> Result {
        guard let rules = languages[language] else { return Result(text: text, applied: []) }
        var result = Result(text: text, applied: [])
        run("collapse-spaces", rules.collapsesSpaces, on: &result) { Self.collapsingSpaces($0) }
        run("opening-mark", !rules.openingMarks.isEmpty, on: &result) {
            OpeningMarks(marks: rules.openingMarks, clauseWords: rules.clauseWords).apply(to: $0)
        }
        run("capitalize-first", rules.capitalizesFirst, on: &result) { Self.capitalizingFirst($0) }
        return result
    }

    private func run(_ name: String, _ enabled: Bool, on result: inout Result, _ rule: (String) -> String) {
        guard enabled else { return }
        let changed = rule(result.text)
        if changed != result.text {
            result.text = changed
            result.applied.append(name)
        }
    }

    private mutating func add(_ row: DataFileRow, path: String) throws {
        let fields = row.fields
        guard fields.count >= 2, !fields[0].isEmpty else {
            throw DataFileError(path: path, line: row.line, message: "expected a language code, a rule and its arguments")
        }
        var rules = languages[fields[0]] ?? Rules()
        switch (fields[1], fields.count) {
        case ("collapse-spaces", 2): rules.collapsesSpaces = true
        case ("capitalize-first", 2): rules.capitalizesFirst = true
        case ("opening-mark", 4) where fields[2].count == 1 && fields[3].count == 1:
            rules.openingMarks[Character(fields[2])] = Character(fields[3])
        case ("clause-word", 3) where !fields[2].isEmpty:
            rules.clauseWords.append(fields[2].lowercased())
        default:
            throw DataFileError(path: path, line: row.line, message: "unknown rule or wrong arguments: '"
                + fields.dropFirst().joined(separator: " ")
                + "' (rules: collapse-spaces, capitalize-first, opening-mark CLOSE OPEN, clause-word WORD)")
        }
        languages[fields[0]] = rules
    }

    static func collapsingSpaces(_ text: String) -> String {
        text.split(separator: " ", omittingEmptySubsequences: true).joined(separator: " ")
    }

    /// Upper-cases the first letter, past any opening punctuation (`¿`, `¡`, quotes).
    static func capitalizingFirst(_ text: String) -> String {
        guard let index = text.firstIndex(where: \.isLetter) else { return text }
        let letter = text[index]
        guard letter.isLowercase else { return text }
        return text.replacingCharacters(in: index...index, with: letter.uppercased())
    }
}
