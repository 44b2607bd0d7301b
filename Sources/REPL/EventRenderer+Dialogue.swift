public import Dialogue
import Foundation
import ParleyCore

extension EventRenderer {
    /// The actions for a dialogue's `event`.
    public mutating func render(_ event: DialogueEvent) -> [EditorAction] {
        switch event {
        case let .stateChanged(new):
            return stateChanged(new)
        case let .turnStarted(side, locale, reason):
            locales[side.description] = locale
            return [line("\(side) (\(locale)), your turn\(Self.typedOnly(reason))", .dim), .prompt(prompt)]
        case let .level(side, level):
            return meterChanged(side, level)
        case .speechStarted, .spoken, .turnFinished:
            return []
        case let .partial(side, text):
            partial = text
            return interactive ? [.status(statusLine(side))] : [.line("\(side) … \(text)")]
        case let .transcript(side, text, input, confidence):
            return clearingStatus() + [utteranceLine(named(side.description), text, input, confidence)]
        case let .sideAssigned(side, locale, confidence, flipped, basis):
            return clearingStatus() + [line(Self.assignmentLine(side, locale, confidence, flipped, basis), .yellow)]
        case let .correctionOffered(side, text, alternatives):
            return clearingStatus() + correctionLines(side, text, alternatives)
        case let .translation(side, target, text, unknown, route):
            locales[side.other.description] = target  // a side may speak (barge in) before its first turn
            return [translationLine(target.description, text, notes: Self.pivotNote(route) + Self.unknownNote(unknown))]
        case let .clause(side, target, text, translation, speed):
            locales[side.other.description] = target
            let faster = speed > 1 ? ["×\(String(format: "%.1f", speed)), catching up"] : []
            return [line("\(side) … \(text)", .dim), translationLine(target.description, translation, notes: faster)]
        case let .speaking(side, _):
            return [line("speaking to \(side)…", .dim)]
        case let .bargeIn(side):
            return [line("\(side) speaks over the translation: holding it…", .yellow)]
        case let .bargeInDismissed(_, reason):
            return clearingStatus() + [line("not an interruption (\(reason)); the translation plays on", .dim)]
        case let .interrupted(side, played):
            return [line("\(side) interrupted the translation after \((played * 10).rounded() / 10) s", .yellow)]
        case let .cancelled(what):
            return clearingStatus() + [line("cancelled \(what)", .yellow)]
        case let .notice(text):
            return [line("note: \(text)", .dim)]
        case let .error(text):
            return [error(text)]
        }
    }

    private mutating func stateChanged(_ new: DialogueState) -> [EditorAction] {
        promptParts = new.side.map { ($0.description, new.name) }
        var actions: [EditorAction] = []
        switch new {
        case .listening, .interpreting, .recognizing: break
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

    /// `pivoted: fr → es → en` for a translation that went through another language; none for a direct one.
    static func pivotNote(_ route: [String]) -> [String] {
        route.count > 2 ? ["pivoted: \(route.joined(separator: " → "))"] : []
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
    static func assignmentLine(_ side: DialogueSide, _ locale: LocaleTag, _ confidence: Double, _ flipped: Bool,
                               _ basis: SideAssignment.Basis) -> String {
        guard !flipped else { return "flipped: side \(side) (\(locale)) said it" }
        let how = switch basis {
        case .voice: "by voice (the same words in both languages)"
        case .turnOrder: "by the turn order (the same words in both languages)"
        default: "\(Int((confidence * 100).rounded(.down)))% sure"
        }
        return "heard side \(side) (\(locale)), \(how) — :flip if it was \(side.other)"
    }

    private func correctionLines(_ side: DialogueSide, _ text: String, _ alternatives: [String]) -> [EditorAction] {
        let choices = ([text] + alternatives).enumerated().map { EditorAction.line("  \($0.offset + 1) \($0.element)") }
        let hint = interactive ? "edit the line and press Enter, or type a number" : "send the text, or a number"
        return [line("\(side) heard (\(hint)):", .bold)] + choices + (interactive ? [.offer(text)] : [])
    }
}
