import ParleyCore

/// Listening on: on the microphone both sides share, a pause ends a turn but not the
/// listening. From the end of a turn's speech, while it is translated and spoken, a request in
/// both languages (the listener's first) hears whoever speaks next, from their first word:
/// the speaker going on, or the listener answering or interrupting. The echo guard still holds
/// the translation when it hears a person over it; their words' language decides what they
/// were (`TurnCoordinator+BargeIn`). Until the translation plays it hears the microphone
/// through the echo canceller; while it plays, as it is (`prepareListeningWhileSpeaking`).
/// Speech that began while a translation played counts only where the guard told a person
/// from its echo, and the request then starts over from the watch's pre-roll. A speaker
/// already going on when their translation is due keeps the floor: it waits until they pause.
/// When the translation has been spoken while someone was being heard, the request becomes
/// the next turn's (`startListening`).
extension TurnCoordinator {
    /// Opens the request that listens on while `speaker`'s turn is translated and spoken; true
    /// when it is open. It opens with barge-in on, on the microphone both sides share, where
    /// the recognizer hears both languages at once, and not for a side interpreted while it speaks.
    func listenOn(after speaker: DialogueSide) async -> Bool {
        let listener = speaker.other
        guard listensOn, microphone.turn == nil, typedOnlyReason(for: listener) == nil,
              let source = stages.source(for: listener) else { return false }
        let token = epoch.current
        let options = RecognitionOptions(endpointMilliseconds: configuration.endpointMilliseconds)
        guard let request = await bothLanguagesRequest(for: listener, options: options) else { return false }
        guard epoch.isCurrent(token), microphone.turn == nil, !inputEnded else {
            _ = await request.cancel()
            return false
        }
        // What the microphone heard since the last speech ended, while that speech was decoded,
        // is heard too: a speaker who goes on after a pause is heard from their first word.
        let since = speechEnd.flatMap { microphone.heard(since: $0) }
        let turn = ListeningTurn(side: listener, request: request, startedAt: since?.from ?? clock.now(), bargeIn: BargeInContext())
        microphone.turn = turn
        if let since { await feed(PCMChunk(format: .recognition, samples: since.samples), to: turn) }
        await source.hearMicrophoneDirectly(false)
        do {
            try await source.startListening()
        } catch {
            if let request = detachBargeIn() { _ = await request.cancel() }
            return false
        }
        return true
    }

    /// Whether a request listens on while a turn is translated and spoken (`listenOn`'s rule,
    /// the open request aside).
    var listensOn: Bool {
        configuration.bargeIn && configuration.bargeInUnavailable == nil && !inputEnded && !interpretsWhileSpoken
            && !stages.hasSeparateDevices
    }

    /// Listens on after the words heard over a turn's translation, while it is still translated
    /// or spoken.
    func listenOnWhileSpeaking() async {
        guard microphone.turn == nil, let turn = activeTurn else { return }
        switch state {
        case .translating, .speaking, .held: _ = await listenOn(after: turn.side)
        default: return
        }
    }

    /// Before a translation plays: while the speaker is heard going on (their speech began in
    /// quiet, before it), it waits until they pause, at most `Floor.speakerWaitBound` seconds, so
    /// that their words are heard without it over them. Their words then follow it (`Floor.goOn`).
    func waitWhileSpeakerGoesOn(_ token: TurnEpoch.Token) async {
        var deadline: Double?
        while epoch.isCurrent(token), let turn = microphone.turn, turn.bargeIn?.detectedAt == nil,
              bargeInWatch.beganInQuiet(turn.speechStart) {
            let now = clock.now()
            deadline = deadline ?? now + Floor.speakerWaitBound
            guard now < deadline ?? now else { return }
            try? await Task.sleep(for: .milliseconds(50))
        }
    }

    /// Before a translation plays while a request listens on: a pause ends the speaker's
    /// sentence, not their floor. The translation waits while the speaker holds the floor
    /// (`Floor.speakerHolds`: heard within the yield silence, `--yield-ms`), at most
    /// `Floor.yieldWaitBound` seconds, so that a speaker who goes on after a pause is heard
    /// without their translation over them (with loudspeakers, its echo can be as loud as they
    /// are); their words follow it (`Floor.goOn`). With a yield silence no longer than the
    /// endpoint, the translation plays at the endpoint.
    func waitUntilTheSpeakerYields(_ token: TurnEpoch.Token) async {
        guard let milliseconds = configuration.yieldMilliseconds, milliseconds > configuration.endpointMilliseconds else { return }
        // The request that listens on may be between two (one ended with nothing, the next
        // not yet open): one is opened, and the wait holds whether or not it could be.
        if microphone.turn == nil { await listenOnWhileSpeaking() }
        guard epoch.isCurrent(token), microphone.turn?.bargeIn != nil || microphone.turn == nil && listensOn else { return }
        var deadline: Double?
        while epoch.isCurrent(token) {
            let (now, turn) = (clock.now(), microphone.turn)
            deadline = deadline ?? now + Floor.yieldWaitBound
            // Waits only while a request listens on, or a new one opens after words it heard.
            guard now < deadline ?? now, turn == nil || turn?.bargeIn?.detectedAt == nil && turn?.bargeIn != nil,
                  Floor.speakerHolds(at: now, yield: Double(milliseconds) / 1000, hearsSpeech: microphone.hearsSpeech,
                                     speechEnd: speechEnd, listeningSince: turn?.startedAt) else { return }
            try? await Task.sleep(for: .milliseconds(50))
        }
    }

    /// When the last speech heard ended, on the session clock: an endpoint before its request told so.
    var speechEnd: Double? {
        microphone.speechEndedTold.map { $0 - Double(configuration.endpointMilliseconds) / 1000 }
    }

    /// A chunk the request listening on hears before anyone held the translation: kept in the
    /// watch's pre-roll. When the echo guard hears a person in it over the translation playing
    /// to the side the request listens for, the translation is held until their words decide.
    /// A request that so far heard only the translation's echo (its speech began while it
    /// played) starts over from the pre-roll, so that their words are read without it.
    func holdIfPerson(_ chunk: PCMChunk) async {
        guard let turn = microphone.turn, let context = turn.bargeIn, context.detectedAt == nil,
              bargeInWatch.overhear(chunk), case .speaking(turn.side) = state, listensWhileSpeaking,
              bargeInWatch.trustsGuard(at: clock.now()) else { return }
        let detectedAt = clock.now()
        let held = BargeInContext(detectedAt: detectedAt, spokenText: context.spokenText ?? bargeInWatch.spokenText)
        microphone.turn?.bargeIn = held
        let token = epoch.current
        _ = await speaker(for: turn.side)?.hold(at: detectedAt)
        emit(.bargeIn(turn.side))
        setState(.held(turn.side))
        guard epoch.isCurrent(token), !bargeInWatch.beganInQuiet(turn.speechStart),
              microphone.turn?.request === turn.request, let request = detachBargeIn() else { return }
        _ = await request.cancel()
        await openHeldRequest(for: turn.side, context: held)
    }
}
