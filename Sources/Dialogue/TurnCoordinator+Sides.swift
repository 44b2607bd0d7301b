import ParleyCore

/// Hands-free turns (`TurnTaking.auto`): either side may speak next. Each utterance is
/// given to the side whose language it is (`Attribution`), translated into the other side's
/// language and spoken to the other side. `:flip` gives the last utterance to the other side
/// instead.
extension TurnCoordinator {
    /// Switches between alternating and hands-free turns; a side listening
    /// for speech starts over with the new kind of request.
    public func setTurnTaking(_ turnTaking: TurnTaking) async {
        let unavailable = turnTaking == .auto ? await attribution.unavailability(
            first: configuration[.a].locale, second: configuration[.b].locale, separateDevices: stages.hasSeparateDevices) : nil
        emit(configuration.changeTurnTaking(turnTaking, unavailable: unavailable))
        guard unavailable == nil, case let .listening(side) = state, microphone.turn?.speechStart == nil else { return }
        if await leaveListening(for: .idle(side)) { await resume(side) }
    }

    /// Who spoke, on the microphone both sides share.
    var attribution: Attribution {
        Attribution(recognizer: stages.recognizer, translation: TranslationStep(translator: stages.translator))
    }

    /// The request for `side`'s turn: in both languages with hands-free turns (the side whose
    /// turn it is first), else in the side's own. A recognizer that cannot hear two languages
    /// at once turns hands-free turns off, saying why.
    func makeRequest(_ recognizer: any SpeechRecognizer, for side: DialogueSide,
                     options: RecognitionOptions) async throws -> any RecognitionRequest {
        let (own, other) = (configuration[side].locale, configuration[side.other].locale)
        guard configuration.turnTaking == .auto else { return try await recognizer.makeRequest(locale: own, options: options) }
        do {
            return try await attribution.makePairRequest(own: own, other: other, options: options)
        } catch {
            configuration.turnTaking = .alternate
            emit(.notice("hands-free turns are off: \(error); turns alternate"))
            return try await recognizer.makeRequest(locale: own, options: options)
        }
    }

    /// A two-language result: each reading translated through its side's direction, the side
    /// decided, announced, and the turn goes on as the winning side's.
    func recognizedEitherSide(_ hypotheses: [LanguageHypothesis], turn: ListeningTurn) async {
        let token = epoch.current
        let heard = await attribute(hypotheses, heardBy: turn)
        guard epoch.isCurrent(token) else { return }
        guard let heard, let draft = heard.draft(for: heard.side, configuration: configuration) else {
            return await recognitionFailed(RecognitionError.emptyRecognition, side: turn.side)
        }
        emit(.sideAssigned(side: draft.side, locale: draft.locale, confidence: heard.confidence, flipped: false, basis: heard.basis))
        await take(draft, heard: heard)
    }

    /// Who said what `turn`'s request read in both languages (`turn.side`'s first); nil when
    /// neither reading has words. Where both readings are the same short words, the voice's
    /// pitch gives the side if the sides' voices tell (`VoiceProfiles`), else the turn order.
    func attribute(_ hypotheses: [LanguageHypothesis], heardBy turn: ListeningTurn) async -> HeardUtterance? {
        let times = TurnTimes(speechStart: turn.speechStart, speechEnd: turn.speechEnd ?? clock.now(), recognized: clock.now())
        guard var heard = await attribution.attribute(hypotheses, sides: [turn.side, turn.side.other],
                                                      configuration: configuration, times: times) else { return nil }
        heard.pitch = turn.voice.pitch
        return floor.byVoice(heard)
    }

    /// An attributed utterance becomes its side's turn (`Floor.took`); it is the one `:flip` re-assigns.
    func take(_ draft: TurnDraft, heard: HeardUtterance) async {
        floor.took(heard)
        await offerOrProcess(draft)
    }

    /// `:flip`: the last hands-free utterance was the other side's. Its reading in the other
    /// side's language is translated the other way and spoken to the first side; the
    /// transcript gets a new turn that names the one it re-assigns.
    public func flip() async {
        guard let heard = floor.lastHeard else {
            return emit(.notice(configuration.turnTaking == .auto
                ? "nothing to flip: no utterance was heard since hands-free turns began or since the last typed turn"
                : "nothing to flip: :flip re-assigns the last utterance of hands-free turns (:turns auto)"))
        }
        guard state.awaitsInput else { return emit(.notice("a turn is being translated or spoken; wait for it, or press Ctrl-C, before flipping")) }
        let side = heard.side.other
        guard var draft = heard.draft(for: side, configuration: configuration, flipOf: heard.turnNumber) else {
            return emit(.notice("the last utterance has no reading in \(configuration[side].locale); nothing to flip"))
        }
        guard await leaveListening(for: .idle(side), correction: true), let flipped = floor.flip() else { return }
        draft.times.recognized = clock.now()
        emit(.sideAssigned(side: side, locale: draft.locale, confidence: flipped.confidence, flipped: true, basis: .flip))
        emit(.transcript(side: side, text: draft.text, input: .speech, confidence: draft.confidence))
        await process(draft)
    }
}
