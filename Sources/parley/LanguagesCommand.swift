import ArgumentParser
import Foundation
import Locales
import ParleyCore
import WhisperRecognition

/// `parley languages`: which locales can be recognized, spoken and translated here.
struct LanguagesCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "languages",
        abstract: "Show which locales can be recognized, spoken and translated offline.",
        discussion: """
            Built from what is installed on this machine, not from a list: every language of \
            an eSpeak NG voice can be spoken, every language of the Whisper model and every \
            PocketSphinx model folder can be recognized, and every installed Apertium direction \
            translates; where no direction joins two languages, a chain through another \
            language does ("en-US via es"), as parley translate and the dialogue take it. The locales named in locales.tsv come first; locales with nothing \
            installed are left out unless --all is given. Any other BCP 47 tag (sq-AL, pt-BR) \
            is served by the closest of these. --markdown prints the table README.md shows.
            """)

    @OptionGroup var common: CommonOptions

    @Flag(help: "Print one JSON object per locale instead of a table.")
    var json = false

    @Flag(help: "Print the table in Markdown.")
    var markdown = false

    @Flag(help: "Also list named locales for which nothing is installed.")
    var all = false

    /// One row of the table.
    struct Row: Encodable {
        var locale: String
        var name: String
        var recognition: Bool
        var recognizers: [String]
        var synthesis: Bool
        /// The eSpeak NG voices (their language names) that speak the locale.
        var voices: [String]
        var translation: [String]
        /// The locales reached only through another language (`en-US via es`), as `parley translate`
        /// and the dialogue take them.
        var pivoted: [String] = []
    }

    /// What the translation column shows for a locale, given the locales one installed
    /// direction reaches (the `pivoted` field and the column's "via" entries add the rest).
    typealias TranslationColumn = @Sendable (_ source: LocaleTag, _ directTargets: [LocaleTag]) -> [String]

    /// The direct targets, as tags.
    static let directTranslations: TranslationColumn = { _, direct in direct.map(\.description) }

    func validate() throws {
        if json, markdown { throw ValidationError("give --json or --markdown, not both") }
    }

    func run() async throws {
        try await reportingFailure {
            let rows = Self.rows(try await Inventory.gather(common), all: all)
            if json { return try printJSON(rows) }
            try StandardOutput.print(markdown ? Self.markdownTable(rows) : Self.table(rows), terminator: "")
        }
    }

    /// One row per locale: the catalog's locales first (without `all`, only those with something
    /// installed), then, sorted, every other locale an engine serves: each eSpeak NG voice's
    /// locale, each Whisper language and PocketSphinx model, each Apertium source language.
    static func rows(_ inventory: Inventory, all: Bool,
                     translations: TranslationColumn = directTranslations) -> [Row] {
        var named = inventory.locales.catalog.locales.map { info in
            row(info.tag, name: info.displayName, voices: inventory.voice(for: info.tag).map { [$0] } ?? [],
                inventory, translations)
        }.filter { all || $0.recognition || $0.synthesis || !$0.translation.isEmpty }
        let claimedVoices = Set(named.flatMap(\.voices))
        let claimedLanguages = Set(inventory.locales.catalog.locales.map(\.tag.language))
        var others: [String: (tag: LocaleTag, name: String?, voices: [String])] = [:]
        for voice in inventory.voices?.spokenLocales ?? [] where !claimedVoices.contains(voice.identifier) {
            let key = voice.locale.description
            if let index = named.firstIndex(where: { $0.locale == key }) {
                named[index].voices.append(voice.identifier)
                continue
            }
            var entry = others[key] ?? (voice.locale, voice.name, [])
            if !entry.voices.contains(voice.identifier) { entry.voices.append(voice.identifier) }
            others[key] = entry
        }
        let heard = inventory.whisperLanguages.map { LocaleTag(language: ModelLanguageCode.language(fromWhisper: $0)) }
            + inventory.models.supportedLocales
        for tag in heard + inventory.translationSources where !claimedLanguages.contains(tag.language) {
            let served = others.values.contains { $0.tag.language == tag.language && (tag.region == nil || $0.tag.region == tag.region) }
            if served || named.contains(where: { $0.locale == tag.description }) { continue }
            others[tag.description] = (tag, nil, inventory.voice(for: tag).map { [$0] } ?? [])
        }
        let rest = others.sorted { $0.key < $1.key }.map { key, entry in
            var row = row(entry.tag, name: name(entry.tag, voiceName: entry.name, inventory), voices: entry.voices,
                          inventory, translations)
            row.locale = key
            return row
        }
        return named + rest
    }

    private static func row(_ tag: LocaleTag, name: String, voices: [String], _ inventory: Inventory,
                            _ translations: TranslationColumn) -> Row {
        Row(locale: tag.description, name: name,
            recognition: inventory.canRecognize(tag), recognizers: inventory.recognizers(for: tag).map(\.rawValue),
            synthesis: !voices.isEmpty, voices: voices,
            translation: translations(tag, inventory.translationTargets(from: tag)),
            pivoted: inventory.pivotedTranslationTargets(from: tag).map { target, through in
                "\(target) via \(through.joined(separator: "+"))"
            })
    }

    /// The language's English name (with the region's), else the voice's own name (`Quenya`).
    private static func name(_ tag: LocaleTag, voiceName: String?, _ inventory: Inventory) -> String {
        guard inventory.locales.names.languageName(tag.language) != nil || voiceName == nil else {
            return voiceName!.replacingOccurrences(of: "_", with: " ")
        }
        return inventory.locales.displayName(of: tag)
    }

    /// The rows as the text table `parley languages` and `:languages` print: the recognition
    /// column names the recognizer that serves the locale, the synthesis column the voice
    /// (`--json` lists every one).
    static func table(_ rows: [Row]) -> String {
        let table = TextTable(header: ["locale", "name", "recognition", "synthesis", "translates to"])
        for row in rows { table.add(cells(row)) }
        return table.render()
    }

    /// The rows as a Markdown table (README.md's language table is this output).
    static func markdownTable(_ rows: [Row]) -> String {
        var lines = ["| locale | name | recognition | synthesis (voice) | translates to |", "| --- | --- | --- | --- | --- |"]
        lines += rows.map { row in "| " + cells(row).map { $0.replacingOccurrences(of: "|", with: "\\|") }.joined(separator: " | ") + " |" }
        return lines.joined(separator: "\n") + "\n"
    }

    private static func cells(_ row: Row) -> [String] {
        [row.locale, row.name, row.recognizers.first ?? "-", row.voices.first ?? "-",
         row.translation.isEmpty && row.pivoted.isEmpty ? "-" : (row.translation + row.pivoted).joined(separator: ", ")]
    }

    private func printJSON(_ rows: [Row]) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let data = try encoder.encode(rows)
        try StandardOutput.print(String(decoding: data, as: UTF8.self))
    }
}
