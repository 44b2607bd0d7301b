import ParleyCore

/// Barge-in: while a translation plays, the listening side may speak over it.
///
/// The source's echo guard marks captured audio `.person` when it is louder than the
/// translation's echo can be. The first such chunk (`BargeInWatch.overhear`) holds playback
/// (`pausePlayback`) and opens a recognition request for the side being spoken to, fed from
/// the watch's pre-roll, so the person is heard from their first word. Their words decide
/// (`BargeInWatch.verdict`): none, a backchannel or the translation's own words (its echo)
/// let playback go on where it was held; anything else stops it, writes the translation as
/// interrupted, with the seconds played, and makes the words that side's turn.
extension TurnCoordinator {
    /// Whether listening stays open while a translation plays.
    var listensWhileSpeaking: Bool {
        guard configuration.bargeIn, configuration.bargeInUnavailable == nil, !inputEnded,
              case let .speaking(side) = state else { return false }
        return typedOnlyReason(for: side) == nil
    }

    /// Turns barge-in on or off; on is refused, in one sentence, where it cannot work.
    public func setBargeIn(_ on: Bool) async {
        if on, let reason = configuration.bargeInUnavailable {
            return emit(.error("barge-in stays off: \(reason)"))
        }
        configuration.bargeIn = on
        emit(.notice(on ? "barge-in on: speak over a translation to interrupt it"
                        : "barge-in off: the microphone closes while a translation plays"))
        if case .speaking = state, !on, microphone.turn?.bargeIn == nil { await closeMicrophones() }
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
        guard bargeInWatch.overhear(chunk), case let .speaking(side) = state else { return }
        await openBargeIn(for: side)
    }

    private func openBargeIn(for side: DialogueSide) async {
        guard let recognizer = stages.recognizer, let spokenText = bargeInWatch.spokenText else { return }
        bargeInWatch.opening = true
        defer { bargeInWatch.opening = false }
        let token = epoch.current
        let detectedAt = clock.now()
        _ = await speaker(for: side)?.hold(at: detectedAt)
        emit(.bargeIn(side))
        setState(.held(side))
        let options = RecognitionOptions(endpointMilliseconds: configuration.endpointMilliseconds)
        let request: any RecognitionRequest
        do {
            request = try await makeRequest(recognizer, for: side, options: options)
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
        microphone.turn = ListeningTurn(side: side, request: request, startedAt: startedAt,
                                  bargeIn: BargeInContext(detectedAt: detectedAt, spokenText: spokenText))
        await consume(PCMChunk(format: .recognition, samples: audio))
    }

    /// A barge-in request's final result decides whether it was an interruption.
    func bargeInRecognized(_ result: RecognitionResult, turn: ListeningTurn, context: BargeInContext) async {
        let readings = result.hypotheses.map { $0.map(\.text) } ?? [result.text]
        if let reason = BargeInWatch.verdict(readings, spokenText: context.spokenText) {
            microphone.turn = nil
            return await dismissBargeIn(turn.side, reason: reason)
        }
        await interruptSpeaking(by: turn.side, at: context.detectedAt)
        await recognized(result, turn: turn)
    }

    /// A barge-in request failed or heard nothing: playback goes on.
    func bargeInFailed(_ error: any Error, side: DialogueSide) async {
        let request = detachBargeIn()
        if let request { _ = await request.cancel() }
        let reason = (error as? RecognitionError).map { _ in "no words" } ?? "recognition failed: \(error)"
        await dismissBargeIn(side, reason: reason)
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
