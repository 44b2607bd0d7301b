import ParleyCore

extension TurnCoordinator {
    /// Whether translations are spoken: not muted, and a synthesizer and a speaker are there.
    var canSpeak: Bool {
        configuration.speaksTranslations && stages.synthesizer != nil && !stages.speakers.isEmpty
    }

    /// Whether translations to `side` are spoken: as `canSpeak`, on that side's speaker.
    func canSpeak(to side: DialogueSide) -> Bool {
        configuration.speaksTranslations && stages.synthesizer != nil && stages.sink(for: side) != nil
    }

    /// Speaks `text` to `side`, on its speaker, in the voice of `voice` (`side` when nil), with the
    /// capture gate closed (open with barge-in); returns when the speaker has drained (or
    /// failed, reported). Times are nil for what did not happen.
    func speak(_ text: String, to side: DialogueSide, voice: DialogueSide? = nil,
               token: TurnEpoch.Token) async -> (start: Double?, end: Double?) {
        guard let synthesizer = stages.synthesizer, let sink = stages.sink(for: side) else { return (nil, nil) }
        bargeInWatch.spokenText = text
        defer { if epoch.isCurrent(token) { bargeInWatch.spokenText = nil } }
        await prepareListeningWhileSpeaking()
        let settings = configuration[voice ?? side]
        emit(.speaking(side: side, text: text))
        var start: Double?
        do {
            let utterance = Utterance(text: text, voice: settings.effectiveVoice, rate: settings.rate)
            try await synthesizer.speak(utterance, to: sink, while: { epoch.isCurrent(token) }) { event in
                guard case .audio = event, start == nil else { return }
                start = clock.now()
                activeTurn?.times.speakStart = start
            }
        } catch {
            guard epoch.isCurrent(token) else { return (start, nil) }
            if inputEnded, let abandoned = (error as? AudioSinkFailure)?.error as? WaitAbandoned {
                stages.waitGivenUp(abandoned)  // at the end of input: named once, and the conversation ends
            } else {
                report(.synthesis, (error as? AudioSinkFailure).map { StageError(.audio, $0.error) } ?? error)
            }
            await sink.cancelPlayback()
            return (start, nil)
        }
        guard epoch.isCurrent(token) else { return (start, nil) }
        emit(.spoken(side))
        return (start, clock.now())
    }

    /// Stops the synthesizer and drops what the speaker has queued.
    func stopSpeech() async {
        await stages.synthesizer?.stopSpeaking()
        for sink in stages.speakers { await sink.cancelPlayback() }
    }
}
