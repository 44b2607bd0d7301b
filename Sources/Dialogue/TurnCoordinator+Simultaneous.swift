import Foundation
import ParleyCore

/// Simultaneous interpretation: a side's speech is translated and spoken to the other side
/// clause by clause while the side goes on speaking.
///
/// The listening request commits words with the configured `CommitPolicy` and hands on each
/// clause it ends (`RecognitionEvent.clause`). Clauses queue in the `Interpreter`; one loop
/// translates and speaks them in order, beside the listening, at `InterpretationPace`. At
/// the endpoint the final result lists every clause, the tail last: those not received yet
/// join the queue, the side being spoken to is shown speaking, and when the queue has
/// drained the turn is written once, with each clause and its times, and the other side has
/// the turn. Clauses are never joined: Apertium translates a clause as well as a sentence.
extension TurnCoordinator {
    /// Whether `side`'s next request commits clauses while it is spoken.
    var interpretsWhileSpoken: Bool {
        configuration.simultaneous && configuration.simultaneousUnavailable == nil && configuration.turnTaking == .alternate
    }

    /// Turns simultaneous interpretation on or off, from the next turn; on is refused, in one
    /// sentence, where it cannot work.
    public func setSimultaneous(_ on: Bool) {
        emit(configuration.changeSimultaneous(on))
    }

    /// A clause committed while the side speaks: queued for translation and speech.
    func interpret(_ clause: RecognizedClause, side: DialogueSide, requestStart: Double) {
        interpreter.beginIfIdle(side: side, target: configuration[side.other].locale, requestStart: requestStart)
        interpreter.receive(clause, at: clock.now())
        if case .listening(side) = state { setState(.interpreting(side)) }
        startInterpreting()
    }

    /// The endpoint of a simultaneous turn: the clauses not received yet are queued, the
    /// microphone closes, and the turn is written once the queue has drained.
    func interpretationRecognized(_ result: RecognitionResult, clauses: [RecognizedClause], turn: ListeningTurn) async {
        interpreter.beginIfIdle(side: turn.side, target: configuration[turn.side.other].locale, requestStart: turn.startedAt)
        let now = clock.now()
        interpreter.ended(EndedSpeech(text: result.text, confidence: result.confidence,
                                      times: TurnTimes(speechStart: turn.speechStart, speechEnd: turn.speechEnd ?? now,
                                                       recognized: now)),
                          clauses: clauses, at: now)
        emit(.transcript(side: turn.side, text: result.text, input: .speech, confidence: result.confidence))
        if interpreter.current?.isDrained == true { return await completeInterpretation() }
        setState(.speaking(turn.side.other))
        await closeMicrophones()
        startInterpreting()
    }

    /// A simultaneous turn whose recognition failed after clauses were committed: what was
    /// committed is the turn.
    func interpretationLostItsEnd(side: DialogueSide) async -> Bool {
        guard let current = interpreter.current, current.received > 0, current.ended == nil else { return false }
        let request = detachListening()
        interpreter.lostItsEnd(at: clock.now())
        await closeGate(cancelling: request)
        if interpreter.current?.isDrained == true {
            await completeInterpretation()
        } else {
            setState(.speaking(side.other))
            startInterpreting()
        }
        return true
    }

    private func startInterpreting() {
        guard interpreter.startLoop(), let current = interpreter.current else { return }
        let (generation, delivery) = (interpreter.generation, clauseDelivery(current))
        Task {
            if await interpreter.run(generation, delivery, clock: clock) { await completeInterpretation() }
        }
    }

    /// How `current`'s clauses reach the other side: translated into its language, shown, and
    /// spoken on its speaker in its voice, faster by the interpreter's pace.
    private func clauseDelivery(_ current: Interpretation) -> ClauseDelivery {
        let (step, source, listener) = (TranslationStep(translator: stages.translator), configuration[current.side].locale, current.side.other)
        var speak: (nonisolated(nonsending) (String, Double, () -> Bool, (Double) -> Void) async -> SpeechOutcome)?
        if canSpeak(to: listener), let synthesizer = stages.synthesizer, let speaker = speaker(for: listener) {
            speak = { [clock] text, speed, isCurrent, started in
                let settings = self.configuration[listener]
                let utterance = Utterance(text: text, voice: settings.effectiveVoice,
                                          rate: InterpretationPace.rate(settings.rate, fasterBy: speed),
                                          volume: self.clauseVolume)
                return await speaker.say(utterance, with: synthesizer, clock: clock, while: isCurrent, started: started)
            }
        }
        return ClauseDelivery(
            translate: { try await step.translate($0, from: source, to: current.target) },
            speak: speak,
            shown: { self.emit(.clause(side: current.side, target: current.target, text: $0.text,
                                       translation: $0.translation, speed: $0.speed)) },
            failed: { self.report(.translation, $0) },
            speechFailed: { self.emit(.error($0.description)) })
    }

    /// The level the next clause plays at: on the loudspeaker the shared microphone hears,
    /// quieter by `duckDecibels` while the speaker still holds the floor (their turn has not
    /// ended), so that their words reach the recognizer over it; full level once they have
    /// yielded, and always on a speaker of the listener's own.
    var clauseVolume: Double {
        guard !stages.hasSeparateDevices, interpreter.current?.ended == nil else { return 1 }
        return pow(10, -configuration.duckDecibels / 20)
    }

    /// The queue has drained after the endpoint: the turn is written, the other side's begins.
    private func completeInterpretation() async {
        guard let current = interpreter.takeCompleted(), let ended = current.ended else { return }
        if case .speaking = state { emit(.spoken(current.side.other)) }
        await finish(current.draft(ended, configuration: configuration))
    }

    /// Ctrl-C during a simultaneous turn: the speech stops, the rest of the turn is dropped,
    /// and what was spoken is written as the turn (the other side has heard it).
    func cancelInterpretation() async {
        guard let current = interpreter.stop() else { return }
        let request = detachListening()
        await stopSpeech()
        await closeGate(cancelling: request)
        emit(.cancelled("interpretation"))
        guard let draft = current.spokenSoFar(everyClause: !canSpeak(to: current.side.other), at: clock.now(),
                                              configuration: configuration) else { return setState(.idle(current.side)) }
        await finish(draft)
    }

    /// The conversation ends during a simultaneous turn: the clauses shown so far are written
    /// as the turn, the one being spoken with the seconds of it played (interrupted); the
    /// interpretation is over. True when there was one.
    func recordInterpretationSoFar() -> Bool {
        guard let current = interpreter.stop() else { return false }
        if let draft = current.shownSoFar(at: clock.now(), configuration: configuration) { record(draft) }
        return true
    }
}
