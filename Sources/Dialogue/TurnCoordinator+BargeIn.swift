import ParleyCore

/// Barge-in: while a translation plays, the listening side may speak over it.
///
/// The source's echo guard marks captured audio `.person` when it is louder than the
/// translation's echo can be. The first such chunk (`BargeInWatch.overhear`) holds playback
/// (`pausePlayback`) and opens a recognition request, fed from the watch's pre-roll, so the
/// person is heard from their first word. On the microphone both sides share, the request
/// hears both languages (the listener's first, where the recognizer can): the speaker may be
/// going on. Their words decide (`BargeInWatch.verdict`): none, a backchannel or the
/// translation's own words (its echo) let playback go on where it was held. Words in the
/// speaker's own language are the speaker going on: the translation plays on from where it
/// was held, and the words are the speaker's next turn (`Floor.goOn`). Anything else stops
/// it, writes the translation as interrupted, with the seconds played, and makes the words
/// the listener's turn.
extension TurnCoordinator {
    /// Whether listening stays open while a translation plays.
    var listensWhileSpeaking: Bool {
        guard configuration.bargeIn, configuration.bargeInUnavailable == nil, !inputEnded,
              case let .speaking(side) = state else { return false }
        return typedOnlyReason(for: side) == nil
    }

    /// Turns barge-in on or off; on is refused, in one sentence, where it cannot work.
    public func setBargeIn(_ on: Bool) async {
        emit(configuration.changeBargeIn(on))
        guard !on else { return }
        // A request listening on for whoever speaks next goes; a person already holding the
        // translation is still heard out.
        if microphone.turn?.bargeIn?.detectedAt == nil, let request = detachBargeIn() { _ = await request.cancel() }
        if case .speaking = state, microphone.turn?.bargeIn == nil { await closeMicrophones() }
    }

    /// Opens or closes the microphone as a translation starts playing.
    /// While it plays the microphone is heard as it is, not through the canceller: the
    /// guard has already told the person from the echo, and a canceller hearing both at once
    /// suppresses the person's first syllables.
    func prepareListeningWhileSpeaking() async {
        bargeInWatch.reset()
        if listensWhileSpeaking, case let .speaking(side) = state, let source = stages.source(for: side) {
            await source.hearMicrophoneDirectly(true)
            do { try await source.startListening() } catch { await source.stopListening() }
        } else {
            await closeMicrophones()
        }
    }

    /// A chunk captured while a translation plays and nobody has barged in yet.
    func overhear(_ chunk: PCMChunk) async {
        guard bargeInWatch.overhear(chunk), case let .speaking(side) = state, bargeInWatch.trustsGuard(at: clock.now()) else { return }
        await openBargeIn(for: side)
    }

    private func openBargeIn(for side: DialogueSide) async {
        guard stages.recognizer != nil, let spokenText = bargeInWatch.spokenText else { return }
        let token = epoch.current
        let detectedAt = clock.now()
        _ = await speaker(for: side)?.hold(at: detectedAt)
        emit(.bargeIn(side))
        setState(.held(side))
        guard epoch.isCurrent(token) else { return }
        await openHeldRequest(for: side, context: BargeInContext(detectedAt: detectedAt, spokenText: spokenText))
    }

    /// Opens the request for the person heard over the translation held for `side`, fed from
    /// the watch's pre-roll, so that they are heard from their first word.
    func openHeldRequest(for side: DialogueSide, context: BargeInContext) async {
        guard let recognizer = stages.recognizer, let detectedAt = context.detectedAt else { return }
        bargeInWatch.opening = true
        defer { bargeInWatch.opening = false }
        let token = epoch.current
        // A person heard over the translation speaks within the pre-roll: a request that hears no
        // speech soon after lets the translation play on.
        let options = RecognitionOptions(endpointMilliseconds: configuration.endpointMilliseconds,
                                         startTimeout: Self.heldSpeechTimeout)
        let request: any RecognitionRequest
        do {
            request = try await makeBargeInRequest(recognizer, for: side, options: options)
        } catch {
            report(.recognition, error)
            return await dismissBargeIn(side, reason: "it could not be recognized")
        }
        guard epoch.isCurrent(token), case .held = state else {
            _ = await request.cancel()
            await speaker(for: side)?.resume()
            return
        }
        let audio = bargeInWatch.takePreRoll()
        let startedAt = detectedAt - AudioFormat.recognition.duration(ofSamples: audio.count)
        microphone.turn = ListeningTurn(side: side, request: request, startedAt: startedAt, bargeIn: context)
        await consume(PCMChunk(format: .recognition, samples: audio))
    }

    /// Seconds a request opened for a person heard over the translation waits for their speech.
    static let heldSpeechTimeout = 1.5

    /// The request for a person heard over the translation spoken to `listener`: on the
    /// microphone both sides share, in both languages (the listener's first) where the
    /// recognizer can hear them at once; else in the listener's own.
    private func makeBargeInRequest(_ recognizer: any SpeechRecognizer, for listener: DialogueSide,
                                    options: RecognitionOptions) async throws -> any RecognitionRequest {
        if let request = await bothLanguagesRequest(for: listener, options: options) { return request }
        return try await recognizer.makeRequest(locale: configuration[listener].locale, options: options)
    }

    /// A request that hears both sides' languages at once, `listener`'s first, on the microphone
    /// both sides share; nil where the recognizer cannot, or each side has its own microphone.
    func bothLanguagesRequest(for listener: DialogueSide, options: RecognitionOptions) async -> (any RecognitionRequest)? {
        let (own, other) = (configuration[listener].locale, configuration[listener.other].locale)
        guard await attribution.unavailability(first: own, second: other, separateDevices: stages.hasSeparateDevices) == nil else {
            return nil
        }
        return try? await attribution.makePairRequest(own: own, other: other, options: options)
    }

    /// A barge-in request's final result decides whether it was an interruption, and, read in
    /// both languages, whose words they were.
    func bargeInRecognized(_ result: RecognitionResult, turn: ListeningTurn, context: BargeInContext) async {
        microphone.turn = nil
        let held = context.detectedAt != nil
        let spokenText = context.spokenText ?? bargeInWatch.spokenText ?? ""
        // Sound that began over the translation is a person only where the guard told them from its echo.
        guard held || bargeInWatch.beganInQuiet(turn.speechStart) else {
            return await passOver(turn.side, held: false, reason: "the translation's echo")
        }
        guard let hypotheses = result.hypotheses, hypotheses.count == 2 else {
            if let reason = BargeInWatch.passesOver(result.text, confidence: result.confidence, spokenText: spokenText) {
                return await passOver(turn.side, held: held, reason: reason)
            }
            await interruptSpeaking(by: turn.side, at: context.detectedAt ?? clock.now())
            return await recognized(result, turn: turn)
        }
        // Read in both languages, the words are first given to their side; the reading that
        // won is then judged (a backchannel, or the translation's echo: its own language). The
        // translation may end meanwhile: the floor then moves on as usual, and the words are
        // taken where it is.
        let heard = await attribute(hypotheses, heardBy: turn)
        guard let heard, var draft = heard.draft(for: heard.side, configuration: configuration) else {
            return await passOver(turn.side, held: held, reason: "no words", nobody: true)
        }
        // Too unsure to be words is neither an interruption nor the speaker going on.
        if let reason = BargeInWatch.passesOver(draft.text, confidence: draft.confidence,
                                                spokenText: heard.side == turn.side ? spokenText : "") {
            return await passOver(turn.side, held: held, reason: reason)
        }
        guard state != .ended else { return }
        emit(.sideAssigned(side: draft.side, locale: draft.locale, confidence: heard.confidence, flipped: false, basis: heard.basis))
        switch floor.wordsOverTranslation(of: heard.side, listener: turn.side, in: state) {
        case .speakerGoesOn:
            draft.assignment?.overTranslation = .wentOn
            floor.goOn(with: draft, heard: heard)
            return await passOver(turn.side, held: held, reason: "side \(heard.side) goes on; their words follow the translation")
        case .interrupts:
            draft.assignment?.overTranslation = .interrupted
            await interruptSpeaking(by: turn.side, at: context.detectedAt ?? clock.now())
        case .followTranslation:
            if heard.side != turn.side { draft.assignment?.overTranslation = .wentOn }
            floor.goOn(with: draft, heard: heard)
            return await listenOnWhileSpeaking()
        case .takeNow:
            await closeGate(cancelling: detachListening())
        }
        await take(draft, heard: heard)
    }

    /// Sound over the translation that decided nothing (`reason`): what was held plays on, and
    /// the microphone listens on while the turn is spoken.
    private func passOver(_ listener: DialogueSide, held: Bool, reason: String, nobody: Bool = false) async {
        // The next request does not hear again what this one passed over: given the same
        // sound from the same point (the end of a word after the last speech), it would pass
        // it over again, one slow decode after another, deaf to whoever speaks meanwhile.
        microphone.passedOverAt = clock.now()
        if held, nobody { bargeInWatch.distrustedUntil = clock.now() + BargeInWatch.distrustSeconds }
        if held { await dismissBargeIn(listener, reason: reason) }
        await listenOnWhileSpeaking()
    }

    /// A barge-in request failed or heard nothing: playback goes on.
    func bargeInFailed(_ error: any Error, side: DialogueSide) async {
        let held = microphone.turn?.bargeIn?.detectedAt != nil
        let request = detachBargeIn()
        if let request { _ = await request.cancel() }
        let reason = (error as? RecognitionError).map { _ in "no words" } ?? "recognition failed: \(error)"
        await passOver(side, held: held, reason: reason, nobody: error is RecognitionError)
    }

    /// Drops an open barge-in request without touching the turn being spoken.
    func detachBargeIn() -> (any RecognitionRequest)? {
        microphone.detachBargeIn()
    }

    private func dismissBargeIn(_ side: DialogueSide, reason: String) async {
        bargeInWatch.reset()
        emit(.bargeInDismissed(side, reason: reason))
        guard case let .held(heldSide) = state else { return }
        setState(.speaking(heldSide))
        await speaker(for: side)?.resume()
    }

    /// Stops the translation being spoken to `side`, who interrupted it at `detectedAt`:
    /// the turn is written as interrupted, with the seconds that were played.
    private func interruptSpeaking(by side: DialogueSide, at detectedAt: Double) async {
        let turn = activeTurn
        floor.asideReturn = nil
        epoch.advance()
        turnTask?.cancel()
        turnTask = nil
        activeTurn = nil
        await stopSpeech()
        let played = max(0, detectedAt - (turn?.times.speakStart ?? detectedAt))
        emit(.interrupted(side, playedSeconds: played))
        emit(.spoken(side))
        guard var draft = turn, let translation = draft.translation else { return }
        draft.times.speakEnd = detectedAt
        draft.playedSeconds = played
        record(draft)
        floor.interrupted(translation.text, by: side)
    }
}
