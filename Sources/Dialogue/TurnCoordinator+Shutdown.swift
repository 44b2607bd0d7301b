import ParleyCore

/// How the conversation ends. A signal (`stop()`) ends it now; the end of input
/// (`finishAndStop()`) first finishes what was begun. Either way every wait on the way out
/// has a bound, and one given up is handed to `ConversationStages.waitGivenUp`, named.
extension TurnCoordinator {
    /// Ends the conversation now: stops listening and speaking, writes the turn in progress,
    /// shuts the stages down, closes the event stream (Ctrl-D on a terminal, SIGTERM, SIGHUP
    /// and `:quit` end here). A turn whose translation is being spoken, or a turn being
    /// interpreted, is written first, with what was heard and shown, marked interrupted
    /// when its speech was cut; the waits that follow are bounded.
    public func stop() async {
        guard state != .ended else { return }
        let request = detachListening()
        turnTask?.cancel()
        turnTask = nil
        let wasSpeaking = switch state {
        case .speaking, .held: true
        default: false
        }
        let spokenTurn = wasSpeaking ? activeTurn.flatMap { $0.translation == nil ? nil : $0 } : nil
        activeTurn = nil
        setState(.ended)
        backgroundTasks.forEach { $0.cancel() }
        if var draft = spokenTurn {
            let now = clock.now()
            draft.times.speakEnd = now
            if let start = draft.times.speakStart { draft.playedSeconds = max(0, now - start) }
            record(draft)
        }
        let interpreted = recordInterpretationSoFar()
        flushTranscript()
        if wasSpeaking || interpreted { await stopSpeechWithinBound() }
        await stages.bounded(ConversationStages.shutdownBound, "the audio server and the engines did not shut down") { [request, stages] in
            await stages.closeMicrophones(cancelling: request)
            await stages.shutdown()
        }
        continuation.finish()
        transcript.close()
    }

    /// Ends the conversation the way end of input should: a turn being spoken,
    /// translated or recognized is finished first (speech already heard is
    /// finished as with the key), queued typed lines are processed, then `stop()`. A barge-in
    /// already being recognized is finished too, but no new one is opened. Each of those
    /// waits is bounded where it happens (a drain the server never reports is given up
    /// past its due time, by the session).
    public func finishAndStop() async {
        inputEnded = true
        // Nobody barges in any more: a request listening on for whoever speaks next goes.
        if microphone.turn?.bargeIn?.detectedAt == nil, let request = detachBargeIn() { _ = await request.cancel() }
        if isListening, microphone.turn?.speechStart != nil { await endTurn() }
        if case .correcting = state { await submitTyped("") }
        await waitUntilReady()
        await stop()
    }

    /// Stops the synthesizer and the speakers, waiting for the speakers' answer at most
    /// `playbackStopBound`.
    func stopSpeechWithinBound() async {
        _ = interpreter.stop()
        await stages.stopPlaybackWithinBound()
    }
}
