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
        let step = TranslationStep(translator: stages.translator)
        for notice in await step.notices(between: locale, and: configuration[side.other].locale, noTranslator: false) {
            emit(.notice(notice))
        }
        if let reason = typedOnlyReason(for: side) { emit(.notice("side \(side) is typed-only: \(reason)")) }
        guard state.side == side, state.awaitsInput else { return }
        await handOver(to: side)
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
