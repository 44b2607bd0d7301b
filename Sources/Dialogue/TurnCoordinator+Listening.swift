import ParleyCore

extension TurnCoordinator {
    /// Why `side` cannot speak, or nil when it can.
    public func typedOnlyReason(for side: DialogueSide) -> String? {
        microphone.typedOnlyReason(for: side, locale: configuration[side].locale, usesMicrophone: configuration.usesMicrophone,
                                   microphone: stages.source(for: side) != nil, separate: stages.hasSeparateDevices,
                                   recognizer: stages.recognizer != nil)
    }

    /// Asks the recognizer whether it serves `locale`, for `typedOnlyReason`.
    func learnWhetherServed(_ locale: LocaleTag) async {
        guard let recognizer = stages.recognizer, microphone.servedLocales[locale] == nil else { return }
        microphone.servedLocales[locale] = await recognizer.serves(locale)
    }

    /// `side`'s turn begins: a queued typed line is taken first; otherwise the
    /// microphone opens in automatic mode, or the side waits for input.
    func beginTurn(_ side: DialogueSide) async {
        emit(.turnStarted(side: side, locale: configuration[side].locale,
                          typedOnlyReason: typedOnlyReason(for: side)))
        await resume(side)
    }

    /// Continues `side`'s turn without announcing it again.
    func resume(_ side: DialogueSide) async {
        if let continued = floor.takeContinuation() {
            await take(continued.draft, heard: continued.heard)
        } else if let line = floor.takeWaitingLine() {
            await startTyped(line, side: side)
        } else if configuration.mode == .automatic, typedOnlyReason(for: side) == nil {
            await startListening(side)
        } else {
            setState(.idle(side))
        }
    }

    /// Opens a recognition request and the capture gate for `side`.
    func startListening(_ side: DialogueSide) async {
        if let turn = microphone.turn, let context = turn.bargeIn, turn.side == side,
           context.detectedAt != nil || bargeInWatch.beganInQuiet(turn.speechStart) {
            // The translation ended while a person who spoke over it, or before it, was being
            // heard: their request becomes the turn's. One that heard nobody goes, and the turn
            // listens afresh through the canceller, which takes the translation's tail out.
            microphone.turn?.bargeIn = nil
            setState(.listening(side))
            await speaker(for: side)?.resume()
            return
        }
        if let request = detachBargeIn() { _ = await request.cancel() }
        let simultaneous = interpretsWhileSpoken
        // A side interpreted while it speaks is heard as it is: a canceller hearing the clauses
        // played meanwhile suppresses the speaker's words (docs/dialogue.md).
        await stages.source(for: side)?.hearMicrophoneDirectly(simultaneous)
        let token = epoch.advance()
        setState(.listening(side))
        guard let recognizer = stages.recognizer, let source = stages.source(for: side) else { return setState(.idle(side)) }
        let options = configuration.listeningOptions(for: side, simultaneous: simultaneous, sharedMicrophone: !stages.hasSeparateDevices)
        let request: any RecognitionRequest
        do {
            request = try await makeRequest(recognizer, for: side, options: options)
        } catch {
            guard epoch.isCurrent(token) else { return }
            report(.recognition, error)
            return setState(.idle(side))
        }
        guard epoch.isCurrent(token) else { _ = await request.cancel(); return }
        microphone.turn = ListeningTurn(side: side, request: request, startedAt: clock.now(), simultaneous: simultaneous)
        if simultaneous { microphone.turn?.underEcho.yieldSeconds = Double(options.endpointMilliseconds) / 1000 }
        do {
            try await source.startListening()
        } catch {
            guard epoch.isCurrent(token) else { return }
            microphone.turn = nil
            _ = await request.cancel()
            report(.audio, error)
            return setState(.idle(side))
        }
        if !epoch.isCurrent(token), !isListening { await source.stopListening() }
    }

    var isListening: Bool {
        switch state {
        case .listening, .interpreting: true
        default: false
        }
    }

    /// Feeds one captured chunk to the listening side's request. `microphone` is the side whose
    /// own microphone heard it (nil: both sides share it): the other side's is not listened to.
    func consume(_ chunk: PCMChunk, from microphone: DialogueSide? = nil) async {
        // Kept for a request that listens on (`listenOn`): on the microphone both sides share.
        if microphone == nil, configuration.bargeIn, !chunk.isEmpty { self.microphone.keep(chunk, at: clock.now()) }
        // While a barge-in request is being opened, what is captured is kept for it.
        if self.microphone.turn == nil, listensWhileSpeaking || bargeInWatch.opening {
            if let microphone, microphone != state.side { return }
            return await overhear(chunk)
        }
        if self.microphone.accepts(from: microphone), self.microphone.turn?.bargeIn != nil { await holdIfPerson(chunk) }
        // A chunk with no samples is the guard's word of a person ahead of its audio: it can only hold.
        guard !chunk.isEmpty, self.microphone.accepts(from: microphone), let turn = self.microphone.turn else { return }
        self.microphone.guardTold(chunk)
        await feed(self.microphone.heard(chunk), to: turn)
    }

    /// Feeds `chunk`, as the open request hears it, to `turn`'s request and acts on its events.
    func feed(_ chunk: PCMChunk, to turn: ListeningTurn) async {
        let token = epoch.current
        if isListening { emit(.level(turn.side, chunk.level)) }
        // The voice's pitch, for the side of the same words in both languages: on the shared microphone.
        if !stages.hasSeparateDevices, !turn.simultaneous, microphone.turn?.request === turn.request {
            microphone.turn?.voice.keep(chunk)
        }
        switch await turn.feed(chunk) {
        case let .heard(events):
            for event in events where epoch.isCurrent(token) { await handle(event, side: turn.side) }
        case .pastTheUtterance:
            return
        case let .failed(error):
            guard epoch.isCurrent(token) else { return }
            await recognitionFailed(error, side: turn.side)
        }
    }

    private func handle(_ event: RecognitionEvent, side: DialogueSide) async {
        // When speech began and ended, for a translation that waits for its speaker to yield.
        if configuration.bargeIn { microphone.told(event, at: clock.now()) }
        switch microphone.note(event) {
        case .speechStarted: emit(.speechStarted(side))
        case let .partial(text): emit(.partial(side, text))
        case let .clause(clause, requestStart): interpret(clause, side: side, requestStart: requestStart)
        case .speechEnded: setState(.recognizing(side))
        case let .final(result, turn): await recognized(result, turn: turn)
        case let .bargeInFinal(result, turn, context): await bargeInRecognized(result, turn: turn, context: context)
        case .nothing: break
        }
    }

    /// The end-of-turn key: opens the microphone when the side is idle,
    /// finishes the recognition at once when it is listening, and accepts the
    /// recognized text as it is in correction.
    public func endTurn() async {
        switch state {
        case let .idle(side):
            if let reason = typedOnlyReason(for: side) {
                emit(.notice("side \(side) is typed-only: \(reason); type the line instead"))
            } else {
                await startListening(side)
            }
        case .listening, .interpreting, .recognizing:
            await finishListening()
        case .correcting:
            await submitTyped("")
        default:
            break
        }
    }

    /// Ends the open request now, as the key does: what it heard is the turn.
    func finishListening() async {
        guard var turn = microphone.turn, !turn.finishing else { return }
        let token = epoch.advance()
        turn.finishing = true
        turn.speechEnd = turn.speechEnd ?? clock.now()
        microphone.turn = turn
        setState(.recognizing(turn.side))
        await closeMicrophones()
        do {
            let result = try await turn.request.finish()
            guard epoch.isCurrent(token) else { return }
            await recognized(result, turn: turn)
        } catch {
            guard epoch.isCurrent(token) else { return }
            await recognitionFailed(error, side: turn.side)
        }
    }

    /// A final result: offered for correction, or translated at once.
    func recognized(_ result: RecognitionResult, turn: ListeningTurn) async {
        epoch.advance()
        microphone.turn = nil
        if let clauses = result.clauses {
            return await interpretationRecognized(result, clauses: clauses, turn: turn)
        }
        if let hypotheses = result.hypotheses, hypotheses.count == 2 {
            return await recognizedEitherSide(hypotheses, turn: turn)
        }
        let text = result.text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !text.isEmpty else { return await recognitionFailed(RecognitionError.emptyRecognition, side: turn.side) }
        let times = TurnTimes(speechStart: turn.speechStart, speechEnd: turn.speechEnd ?? clock.now(),
                              recognized: clock.now())
        let draft = TurnDraft(side: turn.side, locale: configuration[turn.side].locale,
                              target: configuration[turn.side.other].locale, input: .speech, text: text,
                              confidence: result.confidence, alternatives: result.alternatives, times: times)
        await offerOrProcess(draft)
    }

    /// A recognized turn: offered for correction, or translated at once.
    func offerOrProcess(_ draft: TurnDraft) async {
        if configuration.correction {
            correcting = draft
            setState(.correcting(draft.side))
            emit(.correctionOffered(side: draft.side, text: draft.text, alternatives: draft.alternatives))
            await closeMicrophones()
        } else {
            emit(.transcript(side: draft.side, text: draft.text, input: .speech, confidence: draft.confidence))
            await process(draft)
        }
    }

    /// Recognition failed: nothing heard listens again (in automatic mode);
    /// anything else is reported and the side waits for input.
    func recognitionFailed(_ error: any Error, side: DialogueSide) async {
        if microphone.turn?.bargeIn != nil { return await bargeInFailed(error, side: side) }
        if await interpretationLostItsEnd(side: side) { return }
        let turn = microphone.turn
        let request = detachListening()
        switch MicrophoneListening.failure(error) {
        case let .tooLong(partial):
            emit(.notice(String(describing: error)))
            guard let turn else { return setState(.idle(side)) }
            await recognized(partial, turn: turn)
            if let request { _ = await request.cancel() }
        case .nothingHeard:
            emit(.notice(String(describing: error)))
            setState(.idle(side))
            let token = epoch.current
            await closeGate(cancelling: request)
            if epoch.isCurrent(token) { await resume(side) }
        case .failed:
            report(.recognition, error)
            setState(.idle(side))
            await closeGate(cancelling: request)
        }
    }

    /// Drops the listening request, at once: whatever the caller does next
    /// happens before the coordinator can be suspended. Returns the request,
    /// for `closeGate` to cancel.
    func detachListening() -> (any RecognitionRequest)? {
        epoch.advance()
        return microphone.detach()
    }

    /// Drops the listening request and claims `next` before the capture gate closes, so that
    /// input arriving meanwhile is already `next`'s; true when nothing else began meanwhile.
    /// `correction`: a text offered for correction is dropped too.
    @discardableResult
    func leaveListening(for next: DialogueState, correction: Bool = false) async -> Bool {
        let request = detachListening()
        if correction { correcting = nil }
        setState(next)
        let token = epoch.current
        await closeGate(cancelling: request)
        return epoch.isCurrent(token)
    }

    /// Closes the capture gate and cancels a detached request.
    func closeGate(cancelling request: (any RecognitionRequest)?) async {
        await closeMicrophones()
        if let request { _ = await request.cancel() }
    }

    /// Closes the capture gate of every microphone.
    func closeMicrophones() async {
        for (_, source) in stages.microphones { await source.stopListening() }
    }
}
