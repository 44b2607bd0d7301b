public import Dialogue
import ParleyCore

/// A `:` command typed at the prompt (or read from standard input).
public enum ReplCommand: Sendable, Equatable {
    /// `:swap` — the other side takes the turn.
    case swap
    /// `:a LOCALE`, `:b LOCALE` — what the side speaks (as typed; resolved by the caller).
    case locale(DialogueSide, String)
    /// `:voice A|B ID` — the voice that speaks to the side.
    case voice(DialogueSide, String)
    /// `:rate A|B R` — the rate of speech to the side, 0…1.
    case rate(DialogueSide, Double)
    /// `:mode auto|manual` — hands-free or push-to-talk turns.
    case mode(TurnMode)
    /// `:turns alternate|auto` — strict alternation, or either side may speak.
    case turns(TurnTaking)
    /// `:flip` — the last hands-free utterance was the other side's.
    case flip
    /// `:say TEXT` — speak text as it is.
    case say(String)
    /// `:repeat` — speak again the interrupted translation, else the last one.
    case repeatLast
    /// `:dict …` — the pronunciation commands, arguments as typed.
    case dictionary([String])
    /// `:glossary …` — the translation glossary commands, arguments as typed (quotes group words).
    case glossary([String])
    /// `:transcript [FILE]` — show, or move to, the transcript file.
    case transcript(String?)
    /// `:languages` — what can be recognized, spoken and translated.
    case languages
    /// `:correct on|off` — offer recognized text for editing first.
    case correction(Bool)
    /// `:barge-in on|off` — let the listening side interrupt a translation by speaking.
    case bargeIn(Bool)
    /// `:simultaneous on|off` — interpret a side's speech while it is still speaking.
    case simultaneous(Bool)
    /// `:recognizer [A|B NAME]`: show which recognizer serves each side, or choose one for a side.
    case recognizer(DialogueSide?, String?)
    /// `:phrases [TEXT, TEXT…|clear]`: show or set the names and terms recognition should favour.
    case phrases(String?)
    /// `:help [COMMAND]`: every command, or one.
    case help(String?)
    /// `:quit`.
    case quit
}

/// A command line that is not a valid command, with what to type instead.
public struct CommandError: Error, Sendable, Equatable, CustomStringConvertible {
    /// One sentence.
    public var message: String

    /// Creates an error.
    public init(_ message: String) { self.message = message }

    public var description: String { message }
}

/// Parses `:` command lines.
public enum CommandParser {
    /// Every command with its arguments and what it does, for `:help` and suggestions.
    public static let usage: [(name: String, arguments: String, summary: String)] = [
        ("swap", "", "the other side takes the turn"),
        ("a", "LOCALE", "side A speaks LOCALE (en, es-ES, Spanish…)"),
        ("b", "LOCALE", "side B speaks LOCALE"),
        ("voice", "A|B ID", "the voice that speaks to a side (see `parley voices`)"),
        ("rate", "A|B R", "speech rate for a side, 0…1, 0.5 is normal"),
        ("mode", "auto|manual", "turns listen by themselves, or Enter on an empty line talks"),
        ("turns", "alternate|auto", "sides take turns, or either side may speak (each utterance goes to its language's side)"),
        ("flip", "", "the last utterance was the other side's: translate it the other way and speak it again"),
        ("say", "TEXT", "speak TEXT as it is, in the voice of the side whose turn it is"),
        ("repeat", "", "speak again the translation a person last interrupted, else the last translation"),
        ("dict", "list|add|remove|lookup|say LANG …", "show and edit the pronunciation dictionaries"),
        ("glossary", "list|add|remove|lookup|import|export FROM TO …", "show and edit the translation glossaries and phrasebook"),
        ("transcript", "[FILE]", "show the transcript file, or save the transcript to FILE and go on there"),
        ("languages", "", "what can be recognized, spoken and translated here"),
        ("correct", "on|off", "offer recognized text for editing before it is translated"),
        ("barge-in", "on|off", "let the listening side interrupt a translation by speaking over it (needs echo cancellation)"),
        ("simultaneous", "on|off", "translate and speak each clause while the speaker goes on (needs echo cancellation)"),
        ("recognizer", "[A|B whisper|pocketsphinx]", "which recognizer hears each side; choose one for a side"),
        ("phrases", "[TEXT, TEXT…|clear]", "names and terms Whisper should favour (comma-separated)"),
        ("help", "[COMMAND]", "this list, or one command's line"),
        ("quit", "", "leave (Ctrl-D does too)"),
    ]

    /// Command names with their colon, for completion.
    public static var commandNames: [String] { usage.map { ":\($0.name)" } }

    /// Parses a line that starts with `:`.
    public static func parse(_ line: String) -> Result<ReplCommand, CommandError> {
        let body = line.drop { $0 == " " }.dropFirst()
        let name = String(body.prefix { $0 != " " }).lowercased()
        let rest = body.dropFirst(name.count).trimmingCharacters(in: .whitespaces)
        let words = rest.split(separator: " ").map(String.init)
        return Result { try command(name, rest: rest, words: words) }.mapError { $0 as? CommandError ?? CommandError("\($0)") }
    }

    private static func command(_ name: String, rest: String, words: [String]) throws -> ReplCommand {
        switch name {
        case "swap": return try noArguments(.swap, name, words)
        case "a", "b": return .locale(name == "a" ? .a : .b, try one(name, words))
        case "lang", "language", "locale":  // what people try first; the listed form is :a and :b
            guard words.count == 2, let side = DialogueSide(argument: words[0]) else {
                throw CommandError("usage: :a LOCALE or :b LOCALE (or :\(name) A|B LOCALE); :languages lists the locales served here")
            }
            return .locale(side, words[1])
        case "voice":
            let (side, value) = try sideAndValue(name, words)
            return .voice(side, value)
        case "rate":
            let (side, value) = try sideAndValue(name, words)
            guard let rate = Double(value), (0...1).contains(rate) else {
                throw CommandError("the rate must be a number from 0 to 1 (0.5 is normal), not '\(value)'")
            }
            return .rate(side, rate)
        case "mode":
            guard let mode = TurnMode(rawValue: try one(name, words).lowercased()) else { throw usageError(name) }
            return .mode(mode)
        case "turns":
            guard let turns = TurnTaking(rawValue: try one(name, words).lowercased()) else { throw usageError(name) }
            return .turns(turns)
        case "flip": return try noArguments(.flip, name, words)
        case "say":
            guard !rest.isEmpty else { throw usageError(name) }
            return .say(rest)
        case "repeat": return try noArguments(.repeatLast, name, words)
        case "dict": return .dictionary(words)
        case "glossary": return .glossary(try QuotedWords.split(rest))
        case "transcript":
            guard words.count <= 1 else { throw usageError(name) }
            return .transcript(rest.isEmpty ? nil : rest)
        case "languages": return try noArguments(.languages, name, words)
        case "correct":
            switch try one(name, words).lowercased() {
            case "on": return .correction(true)
            case "off": return .correction(false)
            default: throw usageError(name)
            }
        case "barge-in":
            switch try one(name, words).lowercased() {
            case "on": return .bargeIn(true)
            case "off": return .bargeIn(false)
            default: throw usageError(name)
            }
        case "simultaneous":
            switch try one(name, words).lowercased() {
            case "on": return .simultaneous(true)
            case "off": return .simultaneous(false)
            default: throw usageError(name)
            }
        case "recognizer":
            guard !words.isEmpty else { return .recognizer(nil, nil) }
            let (side, value) = try sideAndValue(name, words)
            guard ["whisper", "pocketsphinx"].contains(value.lowercased()) else {
                throw CommandError("the recognizer is whisper or pocketsphinx, not '\(value)'")
            }
            return .recognizer(side, value.lowercased())
        case "phrases": return .phrases(rest.isEmpty ? nil : rest)
        case "help", "?":
            guard words.count <= 1 else { throw usageError("help") }
            guard let asked = words.first else { return .help(nil) }
            let command = String(asked.drop { $0 == ":" }).lowercased()
            guard usage.contains(where: { $0.name == command }) else { throw unknown(command) }
            return .help(command)
        case "quit", "exit", "q": return .quit
        default: throw unknown(name)
        }
    }

    private static func noArguments(_ command: ReplCommand, _ name: String, _ words: [String]) throws -> ReplCommand {
        guard words.isEmpty else { throw usageError(name) }
        return command
    }

    private static func one(_ name: String, _ words: [String]) throws -> String {
        guard words.count == 1 else { throw usageError(name) }
        return words[0]
    }

    private static func sideAndValue(_ name: String, _ words: [String]) throws -> (DialogueSide, String) {
        guard words.count == 2, let side = DialogueSide(argument: words[0]) else { throw usageError(name) }
        return (side, words[1])
    }

    private static func usageError(_ name: String) -> CommandError {
        let entry = usage.first { $0.name == name }
        return CommandError("usage: :\(name) \(entry?.arguments ?? "")".trimmingCharacters(in: .whitespaces))
    }

    private static func unknown(_ name: String) -> CommandError {
        if let suggestion = suggestion(for: name) {
            return CommandError("unknown command ':\(name)'; did you mean :\(suggestion)? (:help lists them)")
        }
        return CommandError("unknown command ':\(name)'; :help lists the commands")
    }

    /// The command closest to `name`: one it starts, or one a couple of edits away.
    public static func suggestion(for name: String) -> String? {
        let names = usage.map(\.name)
        guard !name.isEmpty else { return nil }
        if let prefixed = names.first(where: { $0.count > 1 && $0.hasPrefix(name) }) { return prefixed }
        let scored = names.map { ($0, editDistance(Array(name), Array($0))) }.filter { $0.1 <= max(2, name.count / 3) }
        return scored.min { $0.1 < $1.1 }?.0
    }

    /// The `:help` text, one command per line; with `command`, that command's line.
    public static func helpText(for command: String? = nil) -> String {
        if let command, let entry = usage.first(where: { $0.name == command }) {
            return ":\(entry.name) \(entry.arguments)".trimmingCharacters(in: .whitespaces) + "  " + entry.summary
        }
        let width = usage.map { ":\($0.name) \($0.arguments)".count }.max() ?? 0
        let lines = usage.map { entry -> String in
            let left = ":\(entry.name) \(entry.arguments)"
            return left + String(repeating: " ", count: width - left.count + 2) + entry.summary
        }
        return (lines + ["Type a line to say it in writing; Enter on an empty line ends (or, in manual mode, starts) a spoken turn; Ctrl-C cancels."])
            .joined(separator: "\n")
    }
}
