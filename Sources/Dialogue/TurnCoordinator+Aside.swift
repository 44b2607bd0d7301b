extension TurnCoordinator {
    /// `:say`: speaks `text` as it is, in the voice of the side whose turn it is, then the turn
    /// resumes. With a speaker per side it is spoken on the other side's.
    public func say(_ text: String) async {
        guard let side = state.side else { return }
        await speakAside(text, voiceOf: side, to: stages.hasSeparateDevices ? side.other : side)
    }

    /// `:repeat`: speaks again, to the side it was meant for, the translation a person last
    /// interrupted (once), or else the last translation.
    public func repeatLast() async {
        guard floor.hasRepeat else { return emit(.notice("nothing has been translated yet")) }
        guard state.awaitsInput else { return emit(.notice("a turn is being translated or spoken; wait for it")) }
        guard let last = floor.takeRepeat() else { return }
        await speakAside(last.text, voiceOf: last.side, to: last.side)
    }

    private func speakAside(_ text: String, voiceOf voiceSide: DialogueSide, to listener: DialogueSide) async {
        guard state.awaitsInput, let turnSide = state.side else {
            return emit(.notice("a turn is being translated or spoken; wait for it"))
        }
        guard canSpeak(to: listener) else {
            return emit(.notice(configuration.speaksTranslations ? "speech output is unavailable" : "speech output is off (--mute)"))
        }
        floor.asideReturn = turnSide
        guard await leaveListening(for: .speaking(listener), correction: true) else { return }
        let token = epoch.current
        turnTask = Task {
            _ = await self.speak(text, to: listener, voice: voiceSide, token: token)
            await self.endAside(token: token)
        }
    }

    private func endAside(token: TurnEpoch.Token) async {
        guard epoch.isCurrent(token), let side = floor.asideReturn else { return }
        floor.asideReturn = nil
        turnTask = nil
        await resume(side)
    }
}
