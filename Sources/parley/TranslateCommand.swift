import ArgumentParser
import Foundation
import Locales
import ParleyCore
import Translation

/// `parley translate`: one sentence, or every line of standard input, through Apertium.
struct TranslateCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "translate",
        abstract: "Translate text between two locales with Apertium, offline.",
        discussion: """
            With TEXT, prints its translation. Without it, translates standard input line by \
            line and prints each translation as soon as it is ready, so it works in a pipe. \
            The output is exactly what `apertium -u` prints. A line that cannot be translated \
            gives an empty output line and a message on stderr, and the exit status is 1.

            Without a direct Apertium pair the text goes through another language (fr → es → en): \
            a note on stderr names it, and --json adds "route", "pivots" and each leg.

            Unknown words: --unknown prints them on stderr with Apertium's mark (*word: not in \
            the source dictionary, @word: no translation, #word: cannot be inflected); --json \
            prints one object per line with them.
            """)

    @OptionGroup var common: CommonOptions

    @Option(help: ArgumentHelp("The language of the text: en, en-US, English, español…", valueName: "locale"))
    var from: String

    @Option(help: ArgumentHelp("The language to translate into.", valueName: "locale"))
    var to: String

    @Flag(help: "Print the unknown words of each sentence on stderr.")
    var unknown = false

    @Flag(help: "Print one JSON object per sentence: source, text, raw, cleanup, unknown_words, marked, direction, glossary.")
    var json = false

    @Flag(help: "Print Apertium's text without the target language's clean-up (exactly `apertium -u`).")
    var raw = false

    @Flag(name: .customLong("no-glossary"), help: "Translate without your glossary and phrasebook (`parley glossary`).")
    var noGlossary = false

    @Argument(help: "The text to translate (default: each line of standard input).")
    var text: [String] = []

    func run() async throws {
        let failures = try await reportingFailure {
            let (translator, source, target) = try makeTranslator()
            do {
                let failures = try await translate(with: translator, from: source, to: target)
                await translator.shutdown()
                return failures
            } catch {
                await translator.shutdown()
                throw error
            }
        }
        if failures > 0 { throw ExitCode.failure }
    }

    /// Translates TEXT, or every line of standard input; returns how many lines failed.
    private func translate(with translator: GlossaryTranslator, from source: LocaleTag, to target: LocaleTag) async throws -> Int {
        let printer = TranslationPrinter(json: json, showsUnknownWords: unknown)
        guard text.isEmpty else {
            try printer.print(await translator.translateWithGlossary(text.joined(separator: " "), from: source, to: target))
            return 0
        }
        return try await translateLines(with: translator, from: source, to: target, printer: printer)
    }

    /// The translator and the resolved locales; fails at once when the direction is missing.
    private func makeTranslator() throws -> (GlossaryTranslator, LocaleTag, LocaleTag) {
        let registry = try common.localeRegistry()
        let source = try registry.resolve(from, for: .recognition)
        let target = try registry.resolve(to, for: .synthesis)
        let directories = try common.directories().layered
        let packages = try ApertiumPackageIndex.load(from: directories)
        let cleanup = raw ? TranslationCleanup() : try TranslationCleanup.load(from: directories)
        let translator = ApertiumTranslator(locales: registry.catalog, packages: packages,
                                            configuration: .init(reportsUnknownWords: unknown || json, cleanup: cleanup))
        let route = try translator.route(from: source, to: target)
        if !route.isDirect, !json {
            printError("note: no direct Apertium pair from \(source) to \(target); translating through "
                + route.pivots.map(ApertiumLanguageCodes.englishName).joined(separator: " and then ") + " (\(route.name))")
        }
        let glossaries = noGlossary ? nil : GlossaryStore(directory: try common.directories().user)
        return (GlossaryTranslator(wrapping: translator, store: glossaries), source, target)
    }

    /// Translates each stdin line in order; returns how many failed. Stops, throwing, when stdout fails.
    private func translateLines(with translator: GlossaryTranslator, from source: LocaleTag, to target: LocaleTag,
                                printer: TranslationPrinter) async throws -> Int {
        var failures = 0
        for await line in StandardInputLines.stream() {
            guard let text = line.text else {
                failures += 1
                printError("line \(line.number) of standard input is not UTF-8 text and was not translated; \(TextInput.conversionHint)")
                try printer.printBlankLine()
                continue
            }
            let translated: GlossaryTranslation
            do {
                translated = try await translator.translateWithGlossary(text, from: source, to: target)
            } catch {
                failures += 1
                printError(String(describing: error))
                try printer.printBlankLine()
                continue
            }
            try printer.print(translated)
        }
        return failures
    }
}

/// Writes translations to stdout unbuffered, one line each, and unknown words to stderr;
/// throws `StandardOutputError` when stdout does not take a line.
struct TranslationPrinter {
    var json: Bool
    var showsUnknownWords: Bool

    /// One JSON line.
    struct Line: Encodable {
        var source: String
        var text: String
        /// Apertium's text before the clean-up: exactly `apertium -u`.
        var raw: String
        /// The clean-up rules that changed `raw` into `text`.
        var cleanup: [String]
        var unknown_words: [String]
        var marked: String?
        var direction: String
        /// The glossary and phrasebook entries used.
        var glossary: [GlossaryEntry]
        /// The languages the text went through, when pivoted: `["fr", "es", "en"]`.
        var route: [String]?
        /// The languages between source and target, when pivoted: `["es"]`.
        var pivots: [String]?
        /// Each direction's own translation, when pivoted.
        var legs: [Leg]?
    }

    /// One direction of a pivoted translation.
    struct Leg: Encodable {
        var direction: String
        var source: String
        var raw: String
        var unknown_words: [String]
        var marked: String?
    }

    func print(_ translated: GlossaryTranslation) throws {
        let translation = translated.translation
        if showsUnknownWords, !translation.unknownWords.isEmpty {
            printError("unknown words: " + translation.unknownWords.map(\.description).joined(separator: ", "))
        }
        guard json else { return try write(translation.result.text) }
        let line = Line(source: translation.result.source, text: translation.result.text,
                        raw: translation.rawText, cleanup: translation.cleanups, unknown_words: translation.result.unknownWords, marked: translation.markedText,
                        direction: translation.direction, glossary: translated.applied,
                        route: translation.legs.isEmpty ? nil : translation.result.route,
                        pivots: translation.legs.isEmpty ? nil : translation.result.pivots,
                        legs: translation.legs.isEmpty ? nil : translation.legs.map {
                            Leg(direction: $0.direction, source: $0.result.source, raw: $0.rawText,
                                unknown_words: $0.result.unknownWords, marked: $0.markedText)
                        })

        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        try write(String(decoding: try encoder.encode(line), as: UTF8.self))
    }

    func printBlankLine() throws { try write("") }

    private func write(_ line: String) throws {
        try StandardOutput.print(line)
    }
}

/// Standard input's lines, read on a thread of their own so that waiting for
/// the next line never holds one of Swift's cooperative threads.
enum StandardInputLines {
    /// One line, without its line ending; `text` is nil when its bytes are not UTF-8.
    struct Line: Sendable {
        var number: Int
        var text: String?
    }

    static func stream() -> AsyncStream<Line> {
        AsyncStream { continuation in
            let reader = Thread {
                // A stream of its own on a copy of descriptor 0: nothing else reads standard input here.
                guard let input = fdopen(dup(STDIN_FILENO), "r") else { return continuation.finish() }
                var buffer: UnsafeMutablePointer<CChar>?
                var capacity = 0
                var number = 0
                defer { free(buffer); fclose(input) }
                while true {
                    let count = getline(&buffer, &capacity, input)
                    guard count >= 0, let buffer else { break }
                    number += 1
                    var bytes = UnsafeRawBufferPointer(start: buffer, count: count)
                    if bytes.last == UInt8(ascii: "\n") { bytes = UnsafeRawBufferPointer(rebasing: bytes.dropLast()) }
                    if bytes.last == UInt8(ascii: "\r") { bytes = UnsafeRawBufferPointer(rebasing: bytes.dropLast()) }
                    continuation.yield(Line(number: number, text: String(validating: bytes, as: UTF8.self)))
                }
                continuation.finish()
            }
            reader.start()
        }
    }
}
