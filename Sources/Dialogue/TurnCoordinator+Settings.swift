public import ParleyCore

extension TurnCoordinator {
    /// The other side takes the turn now; what the current side was doing
    /// (listening, correcting) is dropped. Refused while a turn is being
    /// translated or spoken.
    public func swap() async {
        guard state.awaitsInput, let side = state.side else {
            return emit(.notice("a turn is being translated or spoken; wait for it, or press Ctrl-C, before swapping"))
        }
        await handOver(to: side.other)
    }

    /// Drops what the current side was doing and gives `side` the turn; the
    /// state is claimed before the gate closes, so input arriving meanwhile is
    /// already `side`'s.
    private func handOver(to side: DialogueSide) async {
        guard await leaveListening(for: .idle(side), correction: true) else { return }
        await beginTurn(side)
    }

    /// Changes `side`'s locale; its voice goes back to the locale's default.
    public func setLocale(_ locale: LocaleTag, for side: DialogueSide) async {
        await learnWhetherServed(locale)
        emit(configuration.changeLocale(locale, for: side))
        if let note = await sameLanguageNote() {
            emit(.notice(note))
        } else {
            await reportDirection(from: side)
            await reportDirection(from: side.other)
        }
        if let reason = typedOnlyReason(for: side) { emit(.notice("side \(side) is typed-only: \(reason)")) }
        guard state.side == side, state.awaitsInput else { return }
        await handOver(to: side)
    }

    /// The note for two sides of one language whose words are passed on as said, else nil.
    func sameLanguageNote() async -> String? {
        let (a, b) = (configuration[.a].locale, configuration[.b].locale)
        let step = TranslationStep(translator: stages.translator)
        guard await step.passesOnAsSaid(from: a, to: b), await step.passesOnAsSaid(from: b, to: a) else { return nil }
        return a == b
            ? "both sides speak \(a): what one says is passed on to the other as it was said"
            : "\(a) and \(b) are one language: what one side says is passed on to the other as it was said"
    }

    private func reportDirection(from side: DialogueSide) async {
        let (from, to) = (configuration[side].locale, configuration[side.other].locale)
        guard let translator = stages.translator, !(await translator.canTranslate(from: from, to: to)) else { return }
        emit(.notice("no translation from \(from) to \(to) is installed; see `parley languages`"))
    }

    /// Chooses the voice that speaks to `side`, by synthesizer identifier. An
    /// identifier the synthesizer does not have is refused with the close ones.
    public func setVoice(_ identifier: String, for side: DialogueSide) async {
        let voices = await stages.synthesizer?.voices().map(\.identifier)
        emit(configuration.changeVoice(identifier, for: side, among: voices))
    }

    /// Sets the rate of speech to `side` (0…1, 0.5 normal).
    public func setRate(_ rate: Double, for side: DialogueSide) {
        emit(configuration.changeRate(rate, for: side))
    }

    /// Switches between hands-free turns and push-to-talk; an idle side starts
    /// listening when switched to automatic.
    public func setMode(_ mode: TurnMode) async {
        emit(configuration.changeMode(mode))
        if mode == .automatic, case let .idle(side) = state { await resume(side) }
    }

    /// Turns correction of recognized text on or off.
    public func setCorrection(_ on: Bool) {
        emit(configuration.changeCorrection(on))
    }
}
