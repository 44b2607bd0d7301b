import ArgumentParser
import Foundation
import ParleyCore

/// `parley languages`: which locales can be recognized, spoken and translated here.
struct LanguagesCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "languages",
        abstract: "Show which locales can be recognized, spoken and translated offline.",
        discussion: """
            Built from what is installed on this machine: a speech model for recognition, \
            an eSpeak NG voice for synthesis, and Apertium directions for translation. \
            Locales with nothing installed are left out unless --all is given.
            """)

    @OptionGroup var common: CommonOptions

    @Flag(help: "Print one JSON object per locale instead of a table.")
    var json = false

    @Flag(help: "Also list known locales for which nothing is installed.")
    var all = false

    /// One row of the table.
    struct Row: Encodable {
        var locale: String
        var name: String
        var recognition: Bool
        var recognizers: [String]
        var synthesis: Bool
        var translation: [String]
    }

    func run() async throws {
        try await reportingFailure {
            let rows = Self.rows(try await Inventory.gather(common), all: all)
            json ? try printJSON(rows) : print(Self.table(rows), terminator: "")
        }
    }

    /// One row per locale; without `all`, only locales with something installed; then the
    /// languages Whisper recognizes that no catalog locale names, as bare languages.
    static func rows(_ inventory: Inventory, all: Bool) -> [Row] {
        inventory.locales.catalog.locales.map { info in
            Row(locale: info.tag.description, name: info.displayName,
                recognition: inventory.canRecognize(info.tag), recognizers: inventory.recognizers(for: info.tag).map(\.rawValue),
                synthesis: inventory.canSpeak(info.tag),
                translation: inventory.translationTargets(from: info.tag).map(\.description))
        }.filter { all || $0.recognition || $0.synthesis || !$0.translation.isEmpty } + whisperOnlyRows(inventory)
    }

    private static func whisperOnlyRows(_ inventory: Inventory) -> [Row] {
        let covered = Set(inventory.locales.catalog.locales.map(\.tag.language))
        return inventory.whisperLanguages.subtracting(covered).sorted().map { code in
            let tag = LocaleTag(language: code)
            let name = Locale(identifier: "en").localizedString(forLanguageCode: code) ?? code
            return Row(locale: code, name: name, recognition: true, recognizers: ["whisper"],
                       synthesis: inventory.canSpeak(tag), translation: [])
        }
    }

    /// The rows as the text table `parley languages` and `:languages` print: the recognition
    /// column names the recognizer that serves the locale (`--json` lists every one).
    static func table(_ rows: [Row]) -> String {
        let table = TextTable(header: ["locale", "name", "recognition", "synthesis", "translates to"])
        for row in rows {
            table.add([row.locale, row.name, row.recognizers.first ?? "-", row.synthesis ? "yes" : "-",
                       row.translation.isEmpty ? "-" : row.translation.joined(separator: ", ")])
        }
        return table.render()
    }

    private func printJSON(_ rows: [Row]) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let data = try encoder.encode(rows)
        print(String(decoding: data, as: UTF8.self))
    }
}
