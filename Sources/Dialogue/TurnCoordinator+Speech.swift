import ParleyCore

extension TurnCoordinator {
    /// Whether translations to `side` are spoken: not muted, with a synthesizer, on a speaker of
    /// the side's whose audio server is there (while it is gone, they are printed only).
    func canSpeak(to side: DialogueSide) -> Bool {
        configuration.speaksTranslations && stages.synthesizer != nil && stages.sink(for: side) != nil
            && !microphone.lostAudio.contains(side)
    }

    /// Speaks `text` to `side`, on its speaker, in the voice of `voice` (`side` when nil), with the
    /// capture gate closed (open with barge-in); returns when the speaker has drained (or
    /// failed, reported). Times are nil for what did not happen.
    func speak(_ text: String, to side: DialogueSide, voice: DialogueSide? = nil,
               token: TurnEpoch.Token) async -> (start: Double?, end: Double?) {
        guard let synthesizer = stages.synthesizer, let speaker = speaker(for: side) else { return (nil, nil) }
        bargeInWatch.spokenText = text
        defer { if epoch.isCurrent(token) { bargeInWatch.spokenText = nil } }
        await prepareListeningWhileSpeaking()
        let settings = configuration[voice ?? side]
        emit(.speaking(side: side, text: text))
        let utterance = Utterance(text: text, voice: settings.effectiveVoice, rate: settings.rate)
        let outcome = await speaker.say(utterance, with: synthesizer, clock: clock, while: { epoch.isCurrent(token) }) {
            activeTurn?.times.speakStart = $0
            bargeInWatch.playing(from: $0)
        }
        if case let .spoken(_, end) = outcome { bargeInWatch.stopped(at: end) } else { bargeInWatch.stopped(at: clock.now()) }
        switch outcome {
        case let .spoken(start, end):
            emit(.spoken(side))
            return (start, end)
        case let .abandoned(start):
            return (start, nil)
        case let .failed(failure, start):
            if inputEnded, case let .unanswered(abandoned) = failure {
                stages.waitGivenUp(abandoned)  // at the end of input: named once, and the conversation ends
            } else {
                emit(.error(failure.description))
            }
            await speaker.stop()
            return (start, nil)
        }
    }

    /// The speaker `side` hears translations on.
    func speaker(for side: DialogueSide) -> Speaker? {
        guard speakers.count > 1 else { return speakers.first ?? nil }
        return speakers.indices.contains(side.index) ? speakers[side.index] : nil
    }

    /// Stops the synthesizer and drops what the speakers have queued; nothing is held any more.
    func stopSpeech() async {
        await stages.synthesizer?.stopSpeaking()
        for case let speaker? in speakers { await speaker.stop() }
    }
}
