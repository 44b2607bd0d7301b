import ParleyCore

extension TurnCoordinator {
    /// A line typed by the side whose turn it is. It takes over from listening;
    /// in correction it is the corrected text (empty keeps the recognized text,
    /// a number picks an alternative, 1 being the recognized text); while a turn
    /// is translated or spoken it waits and becomes the next side's input.
    public func submitTyped(_ line: String) async {
        let text = line.trimmingCharacters(in: .whitespacesAndNewlines)
        switch state.typedLine(empty: text.isEmpty, clausesReceived: (interpreter.current?.received ?? 0) > 0) {
        case .correction:
            await finishCorrection(text)
        case let .turn(side):
            // Typed while the side listens, the line takes over from the request.
            let request = state == .idle(side) ? nil : detachListening()
            await startTyped(text, side: side)
            if let request { _ = await request.cancel() }
        case let .waits(side):
            floor.wait(text)
            emit(.notice("'\(text)' waits for the turn in progress; it will be side \(side)'s"))
        case .nothing:
            return
        }
    }

    func startTyped(_ text: String, side: DialogueSide) async {
        let draft = TurnDraft(side: side, locale: configuration[side].locale,
                              target: configuration[side.other].locale, input: .typed, text: text,
                              confidence: nil, times: TurnTimes(recognized: clock.now()))
        emit(.transcript(side: side, text: text, input: .typed, confidence: nil))
        await process(draft)
    }

    private func finishCorrection(_ text: String) async {
        guard var draft = correcting?.corrected(by: text) else { return }
        correcting = nil
        draft.times.recognized = clock.now()
        emit(.transcript(side: draft.side, text: draft.text, input: .speech, confidence: draft.confidence))
        await process(draft)
    }

    /// Starts translating and speaking `draft` in its own task, so the actor
    /// stays free for cancel, typed input and the key. The state changes
    /// before the capture gate is closed, so input arriving meanwhile waits.
    func process(_ draft: TurnDraft) async {
        let token = epoch.advance()
        activeTurn = draft
        setState(.translating(draft.side))
        if microphone.turn?.bargeIn == nil, !(await listenOn(after: draft.side)) { await closeMicrophones() }
        guard epoch.isCurrent(token) else {
            if let request = detachBargeIn() { _ = await request.cancel() }
            return
        }
        turnTask = Task { await self.run(draft, token: token) }
    }

    private func run(_ draft: TurnDraft, token: TurnEpoch.Token) async {
        var draft = draft
        if draft.translation == nil {
            guard let translation = await translate(draft, token: token) else { return }
            draft.translation = translation
        }
        guard let translation = draft.translation else { return }
        draft.times.translated = clock.now()
        activeTurn = draft
        emit(.translation(side: draft.side, target: draft.target, text: translation.text,
                          unknownWords: translation.unknownWords, route: translation.route))
        if !translation.glossaryEntries.isEmpty { emit(.notice("glossary: " + translation.glossaryEntries.joined(separator: "; "))) }
        if canSpeak(to: draft.side.other) {
            await waitWhileSpeakerGoesOn(token)
            await waitUntilTheSpeakerYields(token)
            guard epoch.isCurrent(token) else { return }
            setState(.speaking(draft.side.other))
            let spoken = await speak(translation.text, to: draft.side.other, token: token)
            guard epoch.isCurrent(token) else { return }
            draft.times.speakStart = spoken.start
            draft.times.speakEnd = spoken.end
        }
        await finish(draft)
    }

    /// The translation, or nil when it failed (reported; the side keeps the turn).
    private func translate(_ draft: TurnDraft, token: TurnEpoch.Token) async -> TranslationResult? {
        do {
            let result = try await TranslationStep(translator: stages.translator)
                .translate(draft.text, from: draft.locale, to: draft.target)
            guard epoch.isCurrent(token) else { return nil }
            return result
        } catch {
            guard epoch.isCurrent(token) else { return nil }
            if error is TranslationUnavailable { emit(.error("\(error)")) } else { report(.translation, error) }
            epoch.advance()
            turnTask = nil
            activeTurn = nil
            await resume(draft.side)
            return nil
        }
    }

    /// Writes the finished turn and gives the other side the turn.
    func finish(_ draft: TurnDraft) async {
        epoch.advance()
        turnTask = nil
        activeTurn = nil
        record(draft)
        if let continued = floor.takeContinuation() { return await take(continued.draft, heard: continued.heard) }
        await beginTurn(floor.next(after: draft.side))
    }

    /// Numbers a finished turn, writes it to the transcript and reports it. A spoken turn whose
    /// side nothing decided had it by the turn order, or by its side's own microphone.
    func record(_ draft: TurnDraft) {
        var draft = draft
        if draft.input == .speech, draft.assignment == nil {
            draft.assignment = SideAssignment(basis: stages.hasSeparateDevices ? .device : .turnOrder)
        }
        let number = floor.turnFinished(decidedByHearing: draft.assignment?.confidence != nil)
        if let entry = draft.entry(number: number) {
            write(entry)
            floor.spoke(entry.translation, to: draft.side.other)
            emit(.turnFinished(entry))
        }
    }

    /// Ctrl-C: stops what is happening now. Listening, recognizing, correcting
    /// and translating are dropped and the side waits for input; speaking stops
    /// at once, and the turn (already translated) is written and passes on.
    public func cancel() async {
        if interpreter.current != nil { return await cancelInterpretation() }
        switch state {
        case let .listening(side), let .interpreting(side), let .recognizing(side):
            emit(.cancelled("listening"))
            await leaveListening(for: .idle(side))
        case let .correcting(side):
            correcting = nil
            epoch.advance()
            emit(.cancelled("correction"))
            setState(.idle(side))
        case let .translating(side):
            let request = detachBargeIn()
            dropActiveTurn()
            emit(.cancelled("translation"))
            setState(.idle(side))
            await closeGate(cancelling: request)
        case .speaking, .held:
            await cancelSpeaking()
        case .idle, .ended:
            floor.dropWaitingLines()
        }
    }

    private func dropActiveTurn() {
        epoch.advance()
        turnTask?.cancel()
        turnTask = nil
        activeTurn = nil
        floor.dropWaitingLines()
    }

    private func cancelSpeaking() async {
        let (turn, asideSide) = (activeTurn, floor.asideReturn)
        guard turn != nil || asideSide != nil else { return }  // already being stopped
        let side = state.side ?? .a
        floor.asideReturn = nil
        if let request = detachBargeIn() { _ = await request.cancel() }
        dropActiveTurn()
        let stoppedAt = clock.now()
        await stopSpeech()
        emit(.cancelled("speaking"))
        emit(.spoken(side))
        guard var draft = turn, draft.translation != nil else { return await resume(asideSide ?? side) }
        draft.times.speakEnd = stoppedAt
        await finish(draft)
    }
}
