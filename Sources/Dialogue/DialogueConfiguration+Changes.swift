import ParleyCore

/// The changes a person makes while the conversation runs (`:rate`, `:mode`, `:barge-in` …):
/// each applies itself, or is refused and leaves the configuration as it was, and returns the
/// one line that says which (`.notice` when applied, `.error` when refused). What a change
/// means for what is happening now (a side listening again, a request dropped) is the
/// coordinator's.
extension DialogueConfiguration {
    /// Sets the rate of speech to `side`, within 0…1 (0.5 normal).
    mutating func changeRate(_ rate: Double, for side: DialogueSide) -> DialogueEvent {
        self[side].rate = min(max(rate, 0), 1)
        return .notice("side \(side) is spoken to at rate \(self[side].rate)")
    }

    /// Turns correction of recognized text on or off.
    mutating func changeCorrection(_ on: Bool) -> DialogueEvent {
        correction = on
        return .notice(on ? "correction on: recognized text is offered for editing before it is translated" : "correction off")
    }

    /// Switches between turns that listen by themselves and push-to-talk.
    mutating func changeMode(_ new: TurnMode) -> DialogueEvent {
        mode = new
        return .notice(new == .automatic ? "automatic turns: each turn listens by itself"
                                         : "manual turns: press Enter on an empty line to talk, and again to end the turn")
    }

    /// Changes `side`'s locale; its voice goes back to the locale's default.
    mutating func changeLocale(_ locale: LocaleTag, for side: DialogueSide) -> DialogueEvent {
        self[side].locale = locale
        self[side].voice = nil
        return .notice("side \(side) now speaks \(locale)")
    }

    /// Chooses the voice that speaks to `side`; `voices` lists the synthesizer's (nil: there is
    /// no synthesizer to ask, and the choice is kept for when there is). A voice not among them
    /// is refused, with up to five of the side's language.
    mutating func changeVoice(_ identifier: String, for side: DialogueSide, among voices: [String]?) -> DialogueEvent {
        if let voices, !voices.contains(identifier) {
            let language = self[side].locale.language
            let close = voices.filter { $0.hasPrefix(language) }.prefix(5)
            return .error("unknown voice '\(identifier)'" + (close.isEmpty ? "" : "; voices for \(language): \(close.joined(separator: ", "))"))
        }
        self[side].voice = .identifier(identifier)
        return .notice("side \(side) is spoken to by voice \(identifier)")
    }

    /// Turns barge-in on or off; on is refused where it cannot work.
    mutating func changeBargeIn(_ on: Bool) -> DialogueEvent {
        if on, let reason = bargeInUnavailable { return .error("barge-in stays off: \(reason)") }
        bargeIn = on
        return .notice(on ? "barge-in on: speak over a translation to interrupt it"
                          : "barge-in off: the microphone closes while a translation plays")
    }

    /// Turns simultaneous interpretation on or off, from the next turn; on is refused where it
    /// cannot work.
    mutating func changeSimultaneous(_ on: Bool) -> DialogueEvent {
        if on, let reason = simultaneousUnavailable { return .error("simultaneous interpretation stays off: \(reason)") }
        simultaneous = on
        guard on else { return .notice("simultaneous off: a turn is translated when it ends (from the next turn)") }
        return .notice("simultaneous on: each clause is translated and spoken while the speaker goes on (from the next turn)"
                       + (turnTaking == .auto ? "; hands-free turns are still translated at their end, as the side is known only then" : ""))
    }

    /// Switches between alternating and hands-free turns; hands-free is refused for `unavailable`
    /// (the reason the recognizer cannot tell the sides apart), and turns then alternate.
    mutating func changeTurnTaking(_ new: TurnTaking, unavailable: String?) -> DialogueEvent {
        if new == .auto, let unavailable { return .notice("hands-free turns are off: \(unavailable); turns alternate") }
        turnTaking = new
        return .notice(new == .auto
            ? "hands-free turns: either side may speak; each utterance goes to the side whose language it is (:flip corrects it)"
            : "alternating turns: each utterance is the language of the side whose turn it is")
    }

    /// What a conversation with these settings says before its first turn, beside the stages'
    /// own limitations: where the floor follows the turn order, where hands-free turns are not
    /// interpreted clause by clause, and where translations are printed only. `separateDevices`:
    /// each side has its own; `canSpeak`: a synthesizer and a speaker are there.
    func openingNotices(separateDevices: Bool, canSpeak: Bool) -> [String] {
        var notices: [String] = []
        if bargeIn, turnTaking == .alternate, !separateDevices, let alike = TooAlikeByEar(sideA.locale, sideB.locale) {
            notices.append("the floor follows the turn order: \(alike)")
        }
        if simultaneous, turnTaking == .auto {
            notices.append("hands-free turns are translated at their end, not clause by clause: the side is known only then")
        }
        if speaksTranslations, !canSpeak { notices.append("speech output is unavailable; translations are printed only") }
        return notices
    }
}
