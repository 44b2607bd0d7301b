import ArgumentParser
import Foundation
import Locales
import ParleyCore
import Pronunciation
import Synthesis

/// `:dict …` (and `:glossary …`, with `command`) in the dialogue: runs `parley dict …` in this
/// process, as the command value the command line would parse, and returns what it printed.
/// The dictionary commands print as they go and save atomically; their output is captured
/// (`CommandCapture`), so it never cuts through the prompt and the REPL shows it as one block.
/// A failure is the REPL's one error line (`replError`), and changes nothing.
func runDictionaryCommand(_ arguments: [String], dictionaries: String?, command: String = "dict") async -> String {
    let extra = dictionaries.map { ["--dictionaries", $0] } ?? []
    let capture = CommandCapture()
    let succeeded = await CommandCapture.$current.withValue(capture) {
        await runParsed([command] + arguments + (arguments.count >= 2 ? extra : []))
    }
    let text = capture.text.trimmingCharacters(in: .whitespacesAndNewlines)
    return succeeded ? text : replError(text)
}

/// Parses `arguments` as `parley ARGUMENTS` would and runs the command, printing what the
/// binary prints for an error or for `--help`; whether it succeeded.
private func runParsed(_ arguments: [String]) async -> Bool {
    do {
        var parsed = try Parley.parseAsRoot(arguments)
        if var command = parsed as? any AsyncParsableCommand { try await command.run() } else { try parsed.run() }
        return true
    } catch {
        let message = Parley.fullMessage(for: error)
        let success = Parley.exitCode(for: error).isSuccess
        if success {
            if !message.isEmpty { try? StandardOutput.print(message) }
        } else if !message.isEmpty {
            printRaw(message)
        }
        return success
    }
}

/// Writes `message` as ArgumentParser writes an error, without the `parley: ` prefix.
private func printRaw(_ message: String) {
    CommandCapture.current?.append(Array((message + "\n").utf8))
}

/// Gives `synthesizer` the dictionaries as they are after a `:dict` command, so the next
/// spoken line says an added word the new way: the overrides of the conversation's
/// `languages`, of those it already had, and of the language the command named
/// (`:dict add en go …`). The command itself has reported any line it could not use.
func reloadPronunciations(of synthesizer: ESpeakSynthesizer, _ directories: DataDirectories,
                          languages: [String], after arguments: [String]) {
    var reloaded = Set(languages).union(synthesizer.overrides.entries.keys)
    if arguments.count >= 2 { reloaded.insert(LocaleTag(arguments[1])?.language ?? arguments[1].lowercased()) }
    let dictionaries = PronunciationDictionaries(directories: directories)
    synthesizer.overrides = dictionaries.overrides(for: reloaded.sorted()).overrides
}

/// Dictionary words of the given languages, for tab completion.
func dictionaryWords(languages: [String], directories: DataDirectories) -> [String] {
    let dictionaries = PronunciationDictionaries(directories: directories)
    return languages.flatMap { language in
        ((try? dictionaries.load(language: language))?.entries ?? []).map(\.entry.word)
    }
}

/// A failed `parley dict|glossary` run's output as the REPL's one error line: the
/// message without the command-line prefix, and the usage in the REPL's own words
/// (`:glossary add <from> <to> <source> <target>`, without the options every command has).
func replError(_ output: String) -> String {
    let lines = output.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
    var message = lines.first ?? "the command failed"
    for prefix in ["Error: ", "parley: "] where message.hasPrefix(prefix) {
        message = String(message.dropFirst(prefix.count))
    }
    guard let usage = lines.first(where: { $0.hasPrefix("Usage: parley ") }) else { return "error: \(message)" }
    let common = /\[--(dictionaries|models|server|source|sink) <[^>]+>\] ?/
    let words = usage.dropFirst("Usage: parley ".count).replacing(common, with: "")
    return "error: \(message); usage: :\(words.trimmingCharacters(in: .whitespaces))"
}
