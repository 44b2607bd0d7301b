import Foundation
import Locales
import ParleyCore
import Pronunciation
import Synthesis

/// `:dict …` (and `:glossary …`, with `command`) in the dialogue: runs `parley dict …` as a child of this same
/// binary and returns what it printed. The dictionary commands print as they
/// go and save atomically; in a child process their output cannot cut through
/// the prompt, and the REPL shows it as one block.
func runDictionaryCommand(_ arguments: [String], dictionaries: String?, command: String = "dict") async -> String {
    guard let executable = DataDirectories.currentExecutablePath() else {
        return "error: cannot find the parley binary to run `parley \(command)`"
    }
    let extra = dictionaries.map { ["--dictionaries", $0] } ?? []
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = [command] + arguments + (arguments.count >= 2 ? extra : [])
    process.standardInput = FileHandle.nullDevice
    let output = Pipe()
    process.standardOutput = output
    process.standardError = output
    return await withCheckedContinuation { continuation in
        DispatchQueue.global().async {
            do {
                try process.run()
                let data = output.fileHandleForReading.readDataToEndOfFile()
                process.waitUntilExit()
                let text = String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
                continuation.resume(returning: process.terminationStatus == 0 ? text : replError(text))
            } catch {
                continuation.resume(returning: "error: cannot run `parley \(command)`: \(error)")
            }
        }
    }
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
