import Foundation
import Locales
import ProcessHarness
public import Translation

/// The `apertium` command as the reference for Parley's translations: its raw
/// text, and that text after the shipped clean-up for the target language.
public enum ApertiumReference {
    public static let cleanup: TranslationCleanup = {
        do {
            return try TranslationCleanup.load(from: [DataDirectories.sourceTreeDataDirectory])
        } catch {
            fatalError("the shipped clean-up rules do not load: \(error)")
        }
    }()

    /// What `apertium -u DIRECTION` prints for one line, spawned anew, trimmed.
    public static func raw(_ direction: String, _ line: String) throws -> String {
        try ProcessRunner.run(["apertium", "-u", direction], input: Data((line + "\n").utf8))
            .stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// `raw(direction, line)` tidied by the clean-up for the direction's target language.
    public static func cleaned(_ direction: String, _ line: String) throws -> String {
        cleanup.apply(to: try raw(direction, line), language: targetLanguage(of: direction)).text
    }

    /// What `apertium -u FIRST | apertium -u SECOND …` prints for one line: each command spawned anew,
    /// reading the one before's trimmed output.
    public static func chainedRaw(_ directions: [String], _ line: String) throws -> String {
        try directions.reduce(line) { text, direction in try raw(direction, text) }
    }

    /// The ISO 639-1 code of a direction's target language: `es` for `eng-spa`, `en` for `spa-eng_US`, `es` for `fr-es`.
    public static func targetLanguage(of direction: String) -> String {
        let target = direction.split(separator: "-").last.map { String($0.split(separator: "_")[0]) } ?? direction
        return ApertiumLanguageCodes.short(target)
    }
}
