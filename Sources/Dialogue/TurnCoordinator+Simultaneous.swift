import ParleyCore

/// Simultaneous interpretation: a side's speech is translated and spoken to the other side
/// clause by clause while the side goes on speaking.
///
/// The listening request commits words with the configured `CommitPolicy` and hands on each
/// clause it ends (`RecognitionEvent.clause`). Clauses queue in `Interpretation`; one loop
/// translates and speaks them in order, beside the listening. At the endpoint the final
/// result lists every clause, the tail last: those not received yet join the queue, the
/// side being spoken to is shown speaking, and when the queue has drained the turn is
/// written once, with each clause and its times, and the other side has the turn.
///
/// The backlog is bounded by speed: when the clause about to be spoken ended more than
/// `backlogSeconds` ago in the speaker's audio, it is spoken faster, the more the further
/// behind, up to `fastestSpeed` times the side's rate. Clauses are never joined: each keeps
/// its own translation (Apertium translates a clause as well as a sentence) and its own
/// speech times.
extension TurnCoordinator {
    /// How far behind the speaker the listener may fall before clauses are sped up.
    public static let backlogSeconds = 1.0
    /// The most the speech is sped up by, over the side's own rate: eSpeak NG goes to 450
    /// words per minute (2.6 times its normal 175), but past about 1.5 times a listener
    /// loses words.
    public static let fastestSpeed = 1.5
    /// Seconds of lag past `backlogSeconds` per step of 0.1 in speed.
    public static let secondsPerSpeedStep = 0.25

    /// Whether `side`'s next request commits clauses while it is spoken.
    var interpretsWhileSpoken: Bool {
        configuration.simultaneous && configuration.simultaneousUnavailable == nil && configuration.turnTaking == .alternate
    }

    /// Turns simultaneous interpretation on or off, from the next turn; on is refused, in one
    /// sentence, where it cannot work.
    public func setSimultaneous(_ on: Bool) {
        if on, let reason = configuration.simultaneousUnavailable {
            return emit(.error("simultaneous interpretation stays off: \(reason)"))
        }
        configuration.simultaneous = on
        var note = on ? "simultaneous on: each clause is translated and spoken while the speaker goes on (from the next turn)"
                      : "simultaneous off: a turn is translated when it ends (from the next turn)"
        if on, configuration.turnTaking == .auto {
            note += "; hands-free turns are still translated at their end, as the side is known only then"
        }
        emit(.notice(note))
    }

    /// A clause committed while the side speaks: queued for translation and speech.
    func interpret(_ clause: RecognizedClause, side: DialogueSide, requestStart: Double) {
        if interpretation == nil {
            interpretationGeneration += 1
            interpretation = Interpretation(side: side, target: configuration[side.other].locale,
                                            requestStart: requestStart, generation: interpretationGeneration)
        }
        interpretation?.received += 1
        interpretation?.queue.append((clause, clock.now()))
        startInterpreting()
    }

    /// The endpoint of a simultaneous turn: the clauses not received yet are queued, the
    /// microphone closes, and the turn is written once the queue has drained.
    func interpretationRecognized(_ result: RecognitionResult, clauses: [RecognizedClause], turn: ListeningTurn) async {
        if interpretation == nil {
            interpretationGeneration += 1
            interpretation = Interpretation(side: turn.side, target: configuration[turn.side.other].locale,
                                            requestStart: turn.startedAt, generation: interpretationGeneration)
        }
        guard var current = interpretation else { return }
        let now = clock.now()
        current.queue += clauses.dropFirst(current.received).map { ($0, now) }
        current.received = clauses.count
        current.ended = EndedSpeech(text: result.text, confidence: result.confidence,
                                    times: TurnTimes(speechStart: turn.speechStart, speechEnd: turn.speechEnd ?? clock.now(),
                                                     recognized: clock.now()))
        interpretation = current
        emit(.transcript(side: turn.side, text: result.text, input: .speech, confidence: result.confidence))
        if current.isDrained { return await completeInterpretation() }
        setState(.speaking(turn.side.other))
        await closeMicrophones()
        startInterpreting()
    }

    /// A simultaneous turn whose recognition failed after clauses were committed: what was
    /// committed is the turn.
    func interpretationLostItsEnd(side: DialogueSide) async -> Bool {
        guard var current = interpretation, current.received > 0, current.ended == nil else { return false }
        let request = detachListening()
        let text = (current.records.map(\.text) + current.queue.map(\.clause.text)).joined(separator: " ")
        current.ended = EndedSpeech(text: text, confidence: nil,
                                    times: TurnTimes(speechStart: nil, speechEnd: clock.now(), recognized: clock.now()))
        interpretation = current
        await closeGate(cancelling: request)
        if current.isDrained {
            await completeInterpretation()
        } else {
            setState(.speaking(side.other))
            startInterpreting()
        }
        return true
    }

    private func startInterpreting() {
        guard var current = interpretation, !current.running, !current.queue.isEmpty else { return }
        current.running = true
        interpretation = current
        let generation = current.generation
        Task { await self.interpretQueue(generation) }
    }

    /// Translates and speaks the queue, clause after clause, until it is empty.
    private func interpretQueue(_ generation: Int) async {
        while let current = interpretation, current.generation == generation, !current.queue.isEmpty {
            let now = clock.now()
            let (clause, arrived) = current.queue[0]
            interpretation?.queue.removeFirst()
            let speed = Self.speed(forLag: now - (current.requestStart + clause.end))
            await interpretClause(clause, committed: arrived, speed: speed, generation: generation)
        }
        guard let current = interpretation, current.generation == generation else { return }
        interpretation?.running = false
        if current.ended != nil { await completeInterpretation() }
    }

    /// How much faster than the side's rate a clause is spoken when the listener is `lag`
    /// seconds behind the end of its source.
    public static func speed(forLag lag: Double) -> Double {
        guard lag > backlogSeconds else { return 1 }
        let steps = ((lag - backlogSeconds) / secondsPerSpeedStep).rounded(.down)
        return min(fastestSpeed, 1 + 0.1 * (steps + 1))
    }

    private func interpretClause(_ clause: RecognizedClause, committed: Double, speed: Double, generation: Int) async {
        guard let current = interpretation else { return }
        let text = clause.text
        let alive = { [weak self] () async -> Bool in await self?.interpretation?.generation == generation }
        var record = ClauseRecord(text: text, translation: "", sourceStart: current.requestStart + clause.start,
                                  sourceEnd: current.requestStart + clause.end, committed: committed,
                                  speed: speed, isTail: clause.isTail)
        do {
            let translation: TranslationResult
            if await passesOnAsSaid(from: configuration[current.side].locale, to: current.target) {
                translation = TranslationResult(source: text, text: text)
            } else {
                guard let translator = stages.translator else { throw TranslationUnavailable() }
                translation = try await translator.translate(text, from: configuration[current.side].locale, to: current.target)
            }
            guard await alive() else { return }
            record.translation = translation.text
            record.translated = clock.now()
            interpretation?.unknownWords += translation.unknownWords
            interpretation?.route = translation.route
            emit(.clause(side: current.side, target: current.target, text: text, translation: translation.text,
                         speed: speed))
            interpretation?.inFlight = record
        } catch {
            guard await alive() else { return }
            report(.translation, error)
            interpretation?.records.append(record)
            return
        }
        if canSpeak(to: current.side.other), let synthesizer = stages.synthesizer, let sink = stages.sink(for: current.side.other) {
            let settings = configuration[current.side.other]
            let utterance = Utterance(text: record.translation, voice: settings.effectiveVoice,
                                      rate: Self.rate(settings.rate, fasterBy: speed))
            var start: Double?
            do {
                try await synthesizer.speak(utterance, to: sink, while: { self.interpretation?.generation == generation }) { event in
                    guard case .audio = event, start == nil else { return }
                    start = self.clock.now()
                    self.interpretation?.inFlight?.speakStart = start
                }
            } catch {
                if interpretation?.generation == generation {
                    report(.synthesis, (error as? AudioSinkFailure).map { StageError(.audio, $0.error) } ?? error)
                }
            }
            record.speakStart = start
            if interpretation?.generation == generation { record.speakEnd = clock.now() }
        }
        if interpretation?.generation == generation {
            interpretation?.records.append(record)
            interpretation?.inFlight = nil
        }
    }

    /// `rate` (the 0…1 scale: 0.5 normal, 1 four times normal) made `speed` times faster.
    public static func rate(_ rate: Double, fasterBy speed: Double) -> Double {
        let multiplier = (rate <= 0.5 ? rate / 0.5 : 1 + (rate - 0.5) / 0.5 * 3) * speed
        let scaled = multiplier <= 1 ? multiplier * 0.5 : 0.5 + (multiplier - 1) / 3 * 0.5
        return min(1, max(0, scaled))
    }

    /// The queue has drained after the endpoint: the turn is written, the other side's begins.
    private func completeInterpretation() async {
        guard let current = interpretation, let ended = current.ended else { return }
        interpretation = nil
        if case .speaking = state { emit(.spoken(current.side.other)) }
        await finish(current.draft(ended, configuration: configuration))
    }

    /// Ctrl-C during a simultaneous turn: the speech stops, the rest of the turn is dropped,
    /// and what was spoken is written as the turn (the other side has heard it).
    func cancelInterpretation() async {
        guard let current = interpretation else { return }
        interpretation = nil
        interpretationGeneration += 1
        let request = detachListening()
        await stopSpeech()
        await closeGate(cancelling: request)
        emit(.cancelled("interpretation"))
        let spoken = current.records.filter { $0.speakStart != nil || !canSpeak(to: current.side.other) }
        guard !spoken.isEmpty else { return setState(.idle(current.side)) }
        var partial = current
        partial.records = spoken
        let text = spoken.map(\.text).joined(separator: " ")
        let draft = partial.draft(EndedSpeech(text: text, confidence: nil,
                                              times: TurnTimes(speechEnd: clock.now(), recognized: clock.now())),
                                  configuration: configuration)
        await finish(draft)
    }

    /// The conversation ends during a simultaneous turn: the clauses shown so far are written
    /// as the turn, the one being spoken with the seconds of it played (interrupted); the
    /// interpretation is over. True when there was one.
    func recordInterpretationSoFar() -> Bool {
        guard let current = interpretation else { return false }
        interpretation = nil
        interpretationGeneration += 1
        var shown = current.records
        var played: Double?
        if var cut = current.inFlight, !cut.translation.isEmpty {
            let now = clock.now()
            if let start = cut.speakStart {
                cut.speakEnd = now
                played = max(0, now - start)
            }
            shown.append(cut)
        }
        guard !shown.isEmpty else { return true }
        var partial = current
        partial.records = shown
        var draft = partial.draft(current.ended ?? EndedSpeech(text: shown.map(\.text).joined(separator: " "), confidence: nil,
                                                               times: TurnTimes(speechEnd: clock.now(), recognized: clock.now())),
                                  configuration: configuration)
        draft.playedSeconds = played
        record(draft)
        return true
    }
}

/// A side's turn being interpreted while it is spoken.
struct Interpretation: Sendable {
    let side: DialogueSide
    let target: LocaleTag
    /// Session time the request began: the clauses' times are relative to it.
    let requestStart: Double
    /// This interpretation's number: a loop of a cancelled one stops.
    let generation: Int
    /// Clauses received from the recognizer (the final result lists them all again).
    var received = 0
    /// Clauses waiting to be translated and spoken, each with when it was received.
    var queue: [(clause: RecognizedClause, arrived: Double)] = []
    /// Clauses translated (and spoken), in order.
    var records: [ClauseRecord] = []
    /// The clause shown and being spoken now, not yet in `records`.
    var inFlight: ClauseRecord?
    /// Whether the loop that speaks the queue runs.
    var running = false
    /// The endpoint was reached: the turn's text and times.
    var ended: EndedSpeech?
    var unknownWords: [String] = []
    var route: [String] = []

    var isDrained: Bool { queue.isEmpty && !running }

    /// The turn as written: the speech's text, the clauses' translations as its translation.
    func draft(_ ended: EndedSpeech, configuration: DialogueConfiguration) -> TurnDraft {
        var times = ended.times
        times.translated = records.compactMap(\.translated).last
        times.speakStart = records.compactMap(\.speakStart).first
        times.speakEnd = records.compactMap(\.speakEnd).last
        var draft = TurnDraft(side: side, locale: configuration[side].locale, target: target, input: .speech,
                              text: ended.text, confidence: ended.confidence, times: times)
        draft.translation = TranslationResult(source: ended.text,
                                              text: records.map(\.translation).filter { !$0.isEmpty }.joined(separator: " "),
                                              unknownWords: unknownWords, route: route)
        draft.clauses = records
        return draft
    }
}

/// What the endpoint of a simultaneous turn gave: the whole text and the turn's times.
struct EndedSpeech: Sendable {
    var text: String
    var confidence: Double?
    var times: TurnTimes
}
