public import Dialogue
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

/// Turns dialogue events into screen actions. On a terminal the level meter
/// and partial results go to the status line; on a pipe every event worth a
/// line gets exactly one, and levels none.
public struct EventRenderer: Sendable {
    /// Whether the output is a terminal with a prompt and a status line.
    public let interactive: Bool
    /// Colours, or none.
    public let style: ConsoleStyle
    private var locales: [DialogueSide: LocaleTag] = [:]
    private var meter: Int?
    private var partial: String?
    private var state: DialogueState = .idle(.a)

    /// Creates a renderer.
    public init(interactive: Bool, style: ConsoleStyle) {
        self.interactive = interactive
        self.style = style
    }

    /// The prompt for the current state: side, locale and state.
    public var prompt: String {
        guard let side = state.side else { return "" }
        let locale = locales[side].map { " \($0)" } ?? ""
        return style.paintPrompt("\(side)\(locale)", .bold) + " " + style.paintPrompt(state.name, .cyan) + "> "
    }

    /// The actions for `event`.
    public mutating func render(_ event: DialogueEvent) -> [EditorAction] {
        switch event {
        case let .stateChanged(new):
            return stateChanged(new)
        case let .turnStarted(side, locale, reason):
            locales[side] = locale
            let typedOnly = reason.map { " — typed only: \($0)" } ?? ""
            return [.line(style.paint("\(side) (\(locale)), your turn\(typedOnly)", .dim)), .prompt(prompt)]
        case let .level(side, level):
            return meterChanged(side, level)
        case .speechStarted:
            return []
        case let .partial(side, text):
            partial = text
            return interactive ? [.status(statusLine(side))] : [.line("\(side) … \(text)")]
        case let .transcript(side, text, input, confidence):
            return clearingStatus() + [.line(transcriptLine(side, text, input, confidence))]
        case let .sideAssigned(side, locale, confidence, flipped):
            return clearingStatus() + [.line(style.paint(Self.assignmentLine(side, locale, confidence, flipped), .yellow))]
        case let .correctionOffered(side, text, alternatives):
            return clearingStatus() + correctionLines(side, text, alternatives)
        case let .translation(side, target, text, unknown, route):
            locales[side.other] = target  // a side may speak (barge in) before its first turn
            let note = unknown.isEmpty ? "" : style.paint(" (unknown: \(unknown.joined(separator: ", ")))", .dim)
            return [.line(style.paint("→ \(target): \(text)", .green) + Self.pivotNote(route, style) + note)]
        case let .clause(side, target, text, translation, speed):
            locales[side.other] = target
            let faster = speed > 1 ? style.paint(" (×\(String(format: "%.1f", speed)), catching up)", .dim) : ""
            return [.line(style.paint("\(side) … \(text)", .dim)), .line(style.paint("→ \(target): \(translation)", .green) + faster)]
        case let .speaking(side, _):
            return [.line(style.paint("speaking to \(side)…", .dim))]
        case .spoken, .turnFinished:
            return []
        case let .bargeIn(side):
            return [.line(style.paint("\(side) speaks over the translation: holding it…", .yellow))]
        case let .bargeInDismissed(_, reason):
            return clearingStatus() + [.line(style.paint("not an interruption (\(reason)); the translation plays on", .dim))]
        case let .interrupted(side, played):
            return [.line(style.paint("\(side) interrupted the translation after \((played * 10).rounded() / 10) s", .yellow))]
        case let .cancelled(what):
            return clearingStatus() + [.line(style.paint("cancelled \(what)", .yellow))]
        case let .notice(text):
            return [.line(style.paint("note: \(text)", .dim))]
        case let .error(text):
            return [.line(style.paint("error: \(text)", .red))]
        }
    }

    private mutating func stateChanged(_ new: DialogueState) -> [EditorAction] {
        state = new
        var actions: [EditorAction] = []
        switch new {
        case .listening, .recognizing: break
        default: actions += clearingStatus()
        }
        return actions + [.prompt(prompt)]
    }

    private mutating func meterChanged(_ side: DialogueSide, _ level: AudioLevel) -> [EditorAction] {
        guard interactive else { return [] }
        let bars = Self.bars(for: level)
        guard bars != meter else { return [] }
        meter = bars
        return [.status(statusLine(side))]
    }

    /// ` (pivoted: fr → es → en)` for a translation that went through another language; empty for a direct one.
    static func pivotNote(_ route: [String], _ style: ConsoleStyle) -> String {
        route.count > 2 ? style.paint(" (pivoted: \(route.joined(separator: " → ")))", .dim) : ""
    }

    /// 0…10 bars for a level: −60 dBFS is empty, 0 dBFS full.
    static func bars(for level: AudioLevel) -> Int {
        guard level.rms > 0 else { return 0 }
        return max(0, min(10, Int(((level.rmsDecibels + 60) / 6).rounded())))
    }

    private func statusLine(_ side: DialogueSide) -> String {
        let bars = meter ?? 0
        let gauge = String(repeating: "▮", count: bars) + String(repeating: "▯", count: 10 - bars)
        return "\(side) \(gauge) \(partial ?? "")"
    }

    private mutating func clearingStatus() -> [EditorAction] {
        let shown = meter != nil || partial != nil
        meter = nil
        partial = nil
        return interactive && shown ? [.status(nil)] : []
    }

    /// `heard side B (es-ES), 97% sure — :flip if it was A`.
    static func assignmentLine(_ side: DialogueSide, _ locale: LocaleTag, _ confidence: Double, _ flipped: Bool) -> String {
        guard !flipped else { return "flipped: side \(side) (\(locale)) said it" }
        return "heard side \(side) (\(locale)), \(Int((confidence * 100).rounded(.down)))% sure — :flip if it was \(side.other)"
    }

    private func transcriptLine(_ side: DialogueSide, _ text: String, _ input: InputKind, _ confidence: Double?) -> String {
        let locale = locales[side].map { " \($0)" } ?? ""
        let how = input == .typed ? "typed" : confidence.map { "heard, confidence \(Int(($0 * 100).rounded()))%" } ?? "heard"
        return style.paint("\(side)\(locale):", .bold) + " \(text) " + style.paint("(\(how))", .dim)
    }

    private func correctionLines(_ side: DialogueSide, _ text: String, _ alternatives: [String]) -> [EditorAction] {
        let choices = ([text] + alternatives).enumerated().map { EditorAction.line("  \($0.offset + 1) \($0.element)") }
        let hint = interactive ? "edit the line and press Enter, or type a number" : "send the text, or a number"
        return [.line(style.paint("\(side) heard (\(hint)):", .bold))] + choices + (interactive ? [.offer(text)] : [])
    }
}
