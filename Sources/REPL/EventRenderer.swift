import Dialogue
import ParleyCore

/// What to do on screen for an event.
public enum EditorAction: Sendable, Equatable {
    /// A finished line.
    case line(String)
    /// The transient status line; nil removes it.
    case status(String?)
    /// A new prompt.
    case prompt(String)
    /// Text placed on the input line for editing.
    case offer(String)
}

/// Turns a conversation's events into screen actions: a dialogue's `DialogueEvent`s
/// (EventRenderer+Dialogue) and a room's `RoomEvent`s (EventRenderer+Room), with one way of
/// writing what both show: what a person said, a translation, an error, the prompt.
///
/// On a terminal the level meter and partial results go to the status line; on a pipe every
/// event worth a line gets exactly one, and levels none.
public struct EventRenderer: Sendable {
    /// Whether the output is a terminal with a prompt and a status line.
    public let interactive: Bool
    /// Colours, or none.
    public let style: ConsoleStyle
    /// Each speaker's locale, by the name the screen gives them (A and B, or 1, 2…), as the
    /// events told it.
    var locales: [String: LocaleTag] = [:]
    /// Who the prompt names and what it says they are doing; nil shows no prompt (the
    /// conversation has ended). A dialogue starts idle on side A.
    var promptParts: (speaker: String, state: String)? = ("A", DialogueState.idle(.a).name)
    /// In a room, the party typed lines go to.
    private(set) var typingAs = 1
    /// A dialogue's status line: the level meter's bars and the partial result.
    var meter: Int?
    var partial: String?
    /// A room's status line: what each party is saying.
    var partials: [Int: String] = [:]

    /// Creates a renderer.
    public init(interactive: Bool, style: ConsoleStyle) {
        self.interactive = interactive
        self.style = style
    }

    /// The prompt: who speaks or types (with their locale once known), and the state.
    public var prompt: String {
        guard let (speaker, state) = promptParts else { return "" }
        return style.paintPrompt(named(speaker), .bold) + " " + style.paintPrompt(state, .cyan) + "> "
    }

    /// In a room, typed lines go to party `party` from now on; the prompt names them.
    mutating func type(as party: Int) {
        typingAs = party
        promptParts = (String(party), "room")
    }

    /// `speaker` with their locale once known: `A en-US`.
    func named(_ speaker: String) -> String {
        speaker + (locales[speaker].map { " \($0)" } ?? "")
    }

    /// `A en-US: where is it (heard, confidence 61%)`: what a person said, spoken or typed.
    func utteranceLine(_ speaker: String, _ text: String, _ input: InputKind, _ confidence: Double?) -> EditorAction {
        let how = input == .typed ? "typed" : confidence.map { "heard, confidence \(Int(($0 * 100).rounded()))%" } ?? "heard"
        return .line(style.paint("\(speaker):", .bold) + " \(text) " + style.paint("(\(how))", .dim))
    }

    /// `→ es-ES: dónde está (unknown: xyzzy)`: a translation for `listeners`, with dimmed notes.
    func translationLine(_ listeners: String, _ text: String, notes: [String], separator: String = ":") -> EditorAction {
        .line(style.paint("→ \(listeners)\(separator) \(text)", .green) + notes.map { style.paint(" (\($0))", .dim) }.joined())
    }

    /// The note naming the words a translation did not know; none when it knew them all.
    static func unknownNote(_ words: [String]) -> [String] {
        words.isEmpty ? [] : ["unknown: \(words.joined(separator: ", "))"]
    }

    /// ` — typed only: REASON`, or nothing for a person who can speak.
    static func typedOnly(_ reason: String?) -> String {
        reason.map { " — typed only: \($0)" } ?? ""
    }

    /// `error: TEXT`, in red.
    func error(_ text: String) -> EditorAction {
        .line(style.paint("error: \(text)", .red))
    }

    /// A line in `tone`: notes, news of the people, cancellations.
    func line(_ text: String, _ tone: ConsoleStyle.Tone) -> EditorAction {
        .line(style.paint(text, tone))
    }
}
