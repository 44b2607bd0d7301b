import ParleyCore

/// Hands-free turns (`TurnTaking.auto`): either side may speak next. Each
/// utterance is decoded in both sides' languages at once, given to the side
/// whose language wins (`LanguagePairDecision`: the recognizer's scores and
/// the translator's unknown-word rate of each reading), translated into the
/// other side's language and spoken to the other side. `:flip` gives the last
/// utterance to the other side instead.
extension TurnCoordinator {
    /// Switches between alternating and hands-free turns; a side listening
    /// for speech starts over with the new kind of request.
    public func setTurnTaking(_ turnTaking: TurnTaking) async {
        let language = configuration[.a].locale.language
        if turnTaking == .auto, stages.hasSeparateDevices {
            return emit(.notice("hands-free turns are off: they tell the sides apart by language on one microphone, and each side has its own; turns alternate"))
        }
        if turnTaking == .auto, configuration[.b].locale.language == language {
            return emit(.notice("hands-free turns are off: \(OneLanguage(language: language)); turns alternate"))
        }
        if turnTaking == .auto, let pair = stages.recognizer as? any LanguagePairRecognizer,
           let reason = await pair.pairUnavailability(first: configuration[.a].locale, second: configuration[.b].locale) {
            return emit(.notice("hands-free turns are off: \(reason); turns alternate"))
        }
        configuration.turnTaking = turnTaking
        emit(.notice(turnTaking == .auto
            ? "hands-free turns: either side may speak; each utterance goes to the side whose language it is (:flip corrects it)"
            : "alternating turns: each utterance is the language of the side whose turn it is"))
        guard case let .listening(side) = state, microphone.turn?.speechStart == nil else { return }
        let request = detachListening()
        setState(.idle(side))
        let token = epoch.current
        await closeGate(cancelling: request)
        if epoch.isCurrent(token) { await resume(side) }
    }

    /// The request for `side`'s turn: in both languages with hands-free turns (the side whose
    /// turn it is first), else in the side's own. A recognizer that cannot hear two languages
    /// at once turns hands-free turns off, saying why.
    func makeRequest(_ recognizer: any SpeechRecognizer, for side: DialogueSide,
                     options: RecognitionOptions) async throws -> any RecognitionRequest {
        let (own, other) = (configuration[side].locale, configuration[side.other].locale)
        guard configuration.turnTaking == .auto else { return try await recognizer.makeRequest(locale: own, options: options) }
        do {
            guard own.language != other.language else { throw OneLanguage(language: own.language) }
            guard let pair = recognizer as? any LanguagePairRecognizer else { throw PairUnavailable() }
            return try await pair.makePairRequest(first: own, second: other, options: options)
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
        let sides = [turn.side, turn.side.other]
        let translations = await translateReadings(hypotheses, sides: sides)
        guard epoch.isCurrent(token) else { return }
        let evidence = hypotheses.indices.map {
            LanguagePairDecision.Evidence(hypotheses[$0], unknownWords: translations[$0]?.unknownWords.count)
        }
        guard let decision = LanguagePairDecision.decide(evidence[0], evidence[1]) else {
            return await recognitionFailed(RecognitionError.emptyRecognition, side: turn.side)
        }
        var readings: [DialogueSide: HeardUtterance.Reading] = [:]
        for index in hypotheses.indices {
            readings[sides[index]] = .init(text: hypotheses[index].text, confidence: hypotheses[index].confidence,
                                           translation: translations[index])
        }
        let times = TurnTimes(speechStart: turn.speechStart, speechEnd: turn.speechEnd ?? clock.now(), recognized: clock.now())
        let heard = HeardUtterance(readings: readings, side: sides[decision.winner], confidence: decision.confidence, times: times)
        guard let draft = heard.draft(for: heard.side, configuration: configuration) else {
            return await recognitionFailed(RecognitionError.emptyRecognition, side: turn.side)
        }
        lastHeard = heard
        emit(.sideAssigned(side: draft.side, locale: draft.locale, confidence: decision.confidence, flipped: false))
        await offerOrProcess(draft)
    }

    /// Each reading translated into the other side's locale, both at once; nil where it failed.
    private func translateReadings(_ hypotheses: [LanguageHypothesis], sides: [DialogueSide]) async -> [TranslationResult?] {
        guard let translator = stages.translator else { return hypotheses.map { _ in nil } }
        let directions = sides.map { (configuration[$0].locale, configuration[$0.other].locale) }
        async let first = Self.reading(hypotheses[0].text, directions[0], translator)
        async let second = Self.reading(hypotheses[1].text, directions[1], translator)
        return await [first, second]
    }

    private static func reading(_ text: String, _ direction: (LocaleTag, LocaleTag),
                                _ translator: any Translator) async -> TranslationResult? {
        guard !text.isEmpty else { return nil }
        return try? await translator.translate(text, from: direction.0, to: direction.1)
    }

    /// `:flip`: the last hands-free utterance was the other side's. Its reading in the other
    /// side's language is translated the other way and spoken to the first side; the
    /// transcript gets a new turn that names the one it re-assigns.
    public func flip() async {
        guard var heard = lastHeard else {
            return emit(.notice(configuration.turnTaking == .auto
                ? "nothing to flip: no utterance was heard since hands-free turns began or since the last typed turn"
                : "nothing to flip: :flip re-assigns the last utterance of hands-free turns (:turns auto)"))
        }
        guard state.awaitsInput else { return emit(.notice("a turn is being translated or spoken; wait for it, or press Ctrl-C, before flipping")) }
        let side = heard.side.other
        guard var draft = heard.draft(for: side, configuration: configuration, flipOf: heard.turnNumber) else {
            return emit(.notice("the last utterance has no reading in \(configuration[side].locale); nothing to flip"))
        }
        let request = detachListening()
        correcting = nil
        setState(.idle(side))
        let token = epoch.current
        await closeGate(cancelling: request)
        guard epoch.isCurrent(token) else { return }
        heard.side = side
        heard.turnNumber = nil
        lastHeard = heard
        draft.times.recognized = clock.now()
        emit(.sideAssigned(side: side, locale: draft.locale, confidence: heard.confidence, flipped: true))
        emit(.transcript(side: side, text: draft.text, input: .speech, confidence: draft.confidence))
        await process(draft)
    }
}

/// Both sides speak one language: the language cannot tell which side spoke.
struct OneLanguage: Error, CustomStringConvertible {
    var language: String
    var description: String { "both sides speak \(language), so the language cannot tell who spoke" }
}

/// The recognizer cannot decode an utterance in two languages at once.
struct PairUnavailable: Error, CustomStringConvertible {
    var description: String { "this recognizer cannot hear both languages at once (Whisper can)" }
}
