import ParleyCore

/// The interpreter: the turn interpreted while it is spoken, its clause queue, and the loop that
/// translates and speaks the queue in order at the pace that keeps the listener's backlog
/// bounded (`InterpretationPace`).
///
/// The coordinator hands it clauses (`receive`, `ended`) and starts its loop (`run`) with a
/// `ClauseDelivery`: how a clause is translated, spoken and shown. Each interpretation has a
/// generation; a loop whose generation is gone stops. It belongs to one coordinator and runs
/// on its actor: the delivery's closures run there.
final class Interpreter {
    /// The turn being interpreted, nil between them.
    private(set) var current: Interpretation?
    /// Numbers interpretations: the loop of a stopped one ends.
    private(set) var generation = 0

    /// Whether a loop of `generation` is still the interpretation's.
    func isCurrent(_ generation: Int) -> Bool { current?.generation == generation }

    /// Begins interpreting `side`'s turn (into `target`, its clauses timed from `requestStart`)
    /// unless one is under way.
    func beginIfIdle(side: DialogueSide, target: LocaleTag, requestStart: Double) {
        guard current == nil else { return }
        generation += 1
        current = Interpretation(side: side, target: target, requestStart: requestStart, generation: generation)
    }

    /// A clause committed while the side speaks, received at `arrived`.
    func receive(_ clause: RecognizedClause, at arrived: Double) {
        current?.received += 1
        current?.queue.append((clause, arrived))
    }

    /// The endpoint: `clauses` lists every clause of the turn, those not received yet join the queue.
    func ended(_ speech: EndedSpeech, clauses: [RecognizedClause], at now: Double) {
        guard let received = current?.received else { return }
        current?.queue += clauses.dropFirst(received).map { ($0, now) }
        current?.received = clauses.count
        current?.ended = speech
    }

    /// The recognition failed after clauses were committed: what was committed is the turn.
    func lostItsEnd(at now: Double) {
        guard let current, current.received > 0, current.ended == nil else { return }
        let text = (current.records.map(\.text) + current.queue.map(\.clause.text)).joined(separator: " ")
        self.current?.ended = EndedSpeech(text: text, confidence: nil,
                                          times: TurnTimes(speechStart: nil, speechEnd: now, recognized: now))
    }

    /// Marks the loop running; false when it runs already or has nothing to do.
    func startLoop() -> Bool {
        guard let current, !current.running, !current.queue.isEmpty else { return false }
        self.current?.running = true
        return true
    }

    /// The next clause of `generation`'s queue, with when it arrived; nil when the queue is
    /// empty (the loop then stops) or the generation is gone.
    func takeNext(_ generation: Int) -> (clause: RecognizedClause, arrived: Double)? {
        guard isCurrent(generation), let next = current?.queue.first else {
            if isCurrent(generation) { current?.running = false }
            return nil
        }
        current?.queue.removeFirst()
        return next
    }

    /// The clause being spoken now, shown and not yet finished.
    func show(_ record: ClauseRecord, unknownWords: [String], route: [String]) {
        current?.unknownWords += unknownWords
        current?.route = route
        current?.inFlight = record
    }

    /// When the clause being spoken began to sound.
    func startedSpeaking(at start: Double) { current?.inFlight?.speakStart = start }

    /// A clause is done (spoken, or failed to translate): it joins the turn's records.
    func finished(_ record: ClauseRecord) {
        current?.records.append(record)
        current?.inFlight = nil
    }

    /// Ends the interpretation as it stands, its loop stopped; returns it.
    func stop() -> Interpretation? {
        defer { current = nil; generation += 1 }
        return current
    }

    /// Translates and speaks the queue of `generation`, clause after clause, until it is empty
    /// or the generation is gone. True when the interpretation's endpoint has come and its queue
    /// has drained: the turn is complete (`takeCompleted`).
    func run(_ generation: Int, _ delivery: ClauseDelivery, clock: SessionClock,
             isolation: isolated (any Actor)? = #isolation) async -> Bool {
        while let (clause, arrived) = takeNext(generation), let requestStart = current?.requestStart {
            let speed = InterpretationPace.speed(forLag: clock.now() - (requestStart + clause.end))
            let record = ClauseRecord(text: clause.text, translation: "", sourceStart: requestStart + clause.start,
                                      sourceEnd: requestStart + clause.end, committed: arrived, speed: speed,
                                      isTail: clause.isTail, otherLanguageShare: clause.otherLanguageShare)
            await interpret(record, generation, delivery, clock: clock)
        }
        return isCurrent(generation) && current?.ended != nil
    }

    private func interpret(_ record: ClauseRecord, _ generation: Int, _ delivery: ClauseDelivery, clock: SessionClock,
                           isolation: isolated (any Actor)? = #isolation) async {
        var record = record
        do {
            let translation = try await delivery.translate(record.text)
            guard isCurrent(generation) else { return }
            record.translation = translation.text
            record.translated = clock.now()
            delivery.shown(record)
            show(record, unknownWords: translation.unknownWords, route: translation.route)
        } catch {
            guard isCurrent(generation) else { return }
            delivery.failed(error)
            finished(record)
            return
        }
        if let speak = delivery.speak {
            let outcome = await speak(record.translation, record.speed, { self.isCurrent(generation) }) {
                self.startedSpeaking(at: $0)
            }
            if case let .failed(failure, _) = outcome { delivery.speechFailed(failure) }
            record.speakStart = outcome.start
            if isCurrent(generation) { record.speakEnd = clock.now() }
        }
        if isCurrent(generation) { finished(record) }
    }

    /// Takes the interpretation whose queue has drained after the endpoint; nil otherwise.
    func takeCompleted() -> Interpretation? {
        guard let current, current.ended != nil, current.isDrained else { return nil }
        self.current = nil
        return current
    }
}

/// How the interpreter's loop translates, speaks and shows the clauses of one interpretation.
/// The closures run on the coordinator's actor.
struct ClauseDelivery {
    /// A clause's text in the listener's language.
    var translate: (String) async throws -> TranslationResult
    /// Speaks a translation `speed` times the listener's rate while the condition holds, telling
    /// when its first audio went out; nil where translations are not spoken to the listener.
    var speak: (nonisolated(nonsending) (String, Double, () -> Bool, (Double) -> Void) async -> SpeechOutcome)?
    /// A clause translated, about to be spoken.
    var shown: (ClauseRecord) -> Void
    /// Its translation failed: the clause is kept without one.
    var failed: (any Error) -> Void
    /// Its speech failed.
    var speechFailed: (SpeechFailure) -> Void
}

/// How fast the listener hears a turn interpreted while it is spoken: when the clause about
/// to be spoken ended more than `backlogSeconds` ago in the speaker's audio, it is spoken
/// faster, the more the further behind, up to `fastestSpeed` times the side's rate. Clauses are
/// never joined: each keeps its own translation and its own speech times.
public enum InterpretationPace {
    /// How far behind the speaker the listener may fall before clauses are sped up.
    public static let backlogSeconds = 1.0
    /// The most the speech is sped up by, over the side's own rate: eSpeak NG goes to 450
    /// words per minute (2.6 times its normal 175), but past about 1.5 times a listener
    /// loses words.
    public static let fastestSpeed = 1.5
    /// Seconds of lag past `backlogSeconds` per step of 0.1 in speed.
    public static let secondsPerSpeedStep = 0.25

    /// How much faster than the side's rate a clause is spoken when the listener is `lag`
    /// seconds behind the end of its source.
    public static func speed(forLag lag: Double) -> Double {
        guard lag > backlogSeconds else { return 1 }
        let steps = ((lag - backlogSeconds) / secondsPerSpeedStep).rounded(.down)
        return min(fastestSpeed, 1 + 0.1 * (steps + 1))
    }

    /// `rate` (the 0…1 scale: 0.5 normal, 1 four times normal) made `speed` times faster.
    public static func rate(_ rate: Double, fasterBy speed: Double) -> Double {
        let multiplier = (rate <= 0.5 ? rate / 0.5 : 1 + (rate - 0.5) / 0.5 * 3) * speed
        let scaled = multiplier <= 1 ? multiplier * 0.5 : 0.5 + (multiplier - 1) / 3 * 0.5
        return min(1, max(0, scaled))
    }
}

/// A side's turn being interpreted while it is spoken.
struct Interpretation: Sendable {
    let side: DialogueSide
    let target: LocaleTag
    /// Session time the request began: the clauses' times are relative to it.
    let requestStart: Double
    /// This interpretation's number: a loop of a stopped one ends.
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

    /// The turn as far as its listener heard it (Ctrl-C): the clauses spoken (all shown, with
    /// `everyClause`, where the listener hears none), their text as the speech's, ended at
    /// `now`; nil when none was.
    func spokenSoFar(everyClause: Bool, at now: Double, configuration: DialogueConfiguration) -> TurnDraft? {
        var partial = self
        partial.records = records.filter { $0.speakStart != nil || everyClause }
        guard !partial.records.isEmpty else { return nil }
        let text = partial.records.map(\.text).joined(separator: " ")
        return partial.draft(EndedSpeech(text: text, confidence: nil, times: TurnTimes(speechEnd: now, recognized: now)),
                             configuration: configuration)
    }

    /// The turn as far as it was shown (the conversation ends at `now`): the clause being spoken
    /// is cut there, interrupted, with the seconds of it played; nil when nothing was shown.
    func shownSoFar(at now: Double, configuration: DialogueConfiguration) -> TurnDraft? {
        var partial = self
        var played: Double?
        if var cut = inFlight, !cut.translation.isEmpty {
            if let start = cut.speakStart {
                cut.speakEnd = now
                played = max(0, now - start)
            }
            partial.records.append(cut)
        }
        guard !partial.records.isEmpty else { return nil }
        let speech = ended ?? EndedSpeech(text: partial.records.map(\.text).joined(separator: " "), confidence: nil,
                                          times: TurnTimes(speechEnd: now, recognized: now))
        var draft = partial.draft(speech, configuration: configuration)
        draft.playedSeconds = played
        return draft
    }
}

/// What the endpoint of a simultaneous turn gave: the whole text and the turn's times.
struct EndedSpeech: Sendable {
    var text: String
    var confidence: Double?
    var times: TurnTimes
}
