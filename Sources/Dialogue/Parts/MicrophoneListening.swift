import ParleyCore

/// The listening of the conversation's microphones: the one recognition request being fed,
/// what its recognizer events mean for the turn, how a failure is taken, and whether each side
/// can speak at all (its microphone, its audio server, a model for its locale).
///
/// It opens nothing and plays nothing: the coordinator opens the request and the capture gate,
/// gives the request here (`turn`), feeds it the audio `accepts` lets through as `heard`, and
/// acts on what `note` makes of each recognizer event.
struct MicrophoneListening: Sendable {
    /// The request being fed, nil while no request is open.
    var turn: ListeningTurn?
    /// Sides whose audio server is gone (both when they share one).
    private(set) var lostAudio: Set<DialogueSide> = []
    /// Locales the recognizer lists, for the reason a side cannot speak.
    var recognizableLocales: Set<LocaleTag> = []
    /// Whether the recognizer serves each locale a side has had (`SpeechRecognizer.serves`).
    var servedLocales: [LocaleTag: Bool] = [:]
    /// When a request last told, on the session clock, that speech ended (an endpoint after it did).
    private(set) var speechEndedTold: Double?
    /// When a request listening on last ended without a turn (nothing heard, or words that
    /// were no interruption), on the session clock: the next one is not given what it heard.
    var passedOverAt: Double?

    /// The microphone both sides share, its last `recentSeconds`, each chunk with when it
    /// arrived: a request that opens after another's speech ended is given what was said since.
    private var recent: [(arrived: Double, chunk: PCMChunk)] = []

    /// How much of the shared microphone is kept (`recent`): more than a pause between one
    /// person's sentences.
    static let recentSeconds = 2.0

    /// Whether the open request hears someone speaking now: it told that speech began, and not
    /// yet that it ended.
    var hearsSpeech: Bool {
        guard let start = turn?.speechStart else { return false }
        return turn?.speechEnd.map { $0 < start } ?? true
    }

    /// Notes when `event` was told, at `now`: a final result ends any speech still going on.
    mutating func told(_ event: RecognitionEvent, at now: Double) {
        switch event {
        case .speechEnded: speechEndedTold = now
        case .final where hearsSpeech: speechEndedTold = now
        default: break
        }
    }

    /// Keeps `chunk` of the shared microphone, arrived at `time`.
    mutating func keep(_ chunk: PCMChunk, at time: Double) {
        recent.append((time, chunk))
        while let first = recent.first, first.arrived < time - Self.recentSeconds { recent.removeFirst() }
    }

    /// What the shared microphone heard from `time` on (at most `recentSeconds` of it, and
    /// nothing a request passed over had heard), as the open request hears it (`heard`), with
    /// when it began on the session clock; nil when nothing was kept.
    func heard(since time: Double) -> (samples: [Int16], from: Double)? {
        let start = max(time, passedOverAt ?? -.infinity)
        let kept = recent.filter { $0.arrived - $0.chunk.duration >= start }
        guard let first = kept.first else { return nil }
        return (kept.flatMap { heard($0.chunk).samples }, first.arrived - first.chunk.duration)
    }

    /// What a recognizer event means for the turn.
    enum Heard {
        /// The side began to speak (a barge-in's start is only noted).
        case speechStarted
        case partial(String)
        /// A clause committed while the side speaks, its times relative to `requestStart`.
        case clause(RecognizedClause, requestStart: Double)
        /// The side stopped speaking: the final result is being computed.
        case speechEnded
        /// The final result of `turn`'s request, or of the barge-in request `bargeIn`.
        case final(RecognitionResult, ListeningTurn)
        case bargeInFinal(RecognitionResult, ListeningTurn, BargeInContext)
        /// Nothing to act on.
        case nothing
    }

    /// How a failed recognition is taken.
    enum Failure {
        /// The speech went on past the limit: what was heard of it is the turn.
        case tooLong(partial: RecognitionResult)
        /// Nothing was heard: a note, and the side listens again.
        case nothingHeard
        /// The recognizer failed: reported, and the side waits for input.
        case failed
    }

    /// Notes the times of `event` on the open request; returns what it means.
    mutating func note(_ event: RecognitionEvent) -> Heard {
        guard let current = turn else { return .nothing }
        switch event {
        case let .speechStarted(at):
            turn?.speechStart = current.startedAt + at
            return current.bargeIn == nil ? .speechStarted : .nothing
        case let .partial(text):
            return .partial(text)
        case let .clause(clause):
            return current.bargeIn == nil ? .clause(clause, requestStart: current.startedAt) : .nothing
        case let .speechEnded(at):
            turn?.speechEnd = current.startedAt + at
            return current.bargeIn == nil ? .speechEnded : .nothing
        case let .final(result):
            guard let ended = turn else { return .nothing }
            return ended.bargeIn.map { .bargeInFinal(result, ended, $0) } ?? .final(result, ended)
        }
    }

    /// Whether audio from `microphone` (nil: the one both sides of a dialogue share) goes to the open request.
    func accepts(from microphone: DialogueSide?) -> Bool {
        guard let turn, !turn.finishing else { return false }
        return microphone == nil || microphone == turn.side
    }

    /// `chunk` as the request hears it: the machine's own speech still reaching the microphone
    /// is nobody's speech, so a listening side, and a request listening on over a translation
    /// until the guard hears a person, hear silence in its place (a person heard over a
    /// translation is heard as it is, from the pre-roll on). A side interpreted while it speaks
    /// hears its clauses play while it talks, as loud as itself: it hears silence only where
    /// the echo subtraction explains what the microphone heard (the echo alone), which would
    /// otherwise hold its turn open and be written as its words again; until it hears a
    /// person, wherever the guard says echo: a turn that opens as the last clause ends hears
    /// that clause's tail in the room, which is not its speaker beginning; and wherever the
    /// guard says echo once its speaker has yielded under their clauses (`SpeakerUnderEcho`):
    /// what is left of the clauses after the subtraction would be decoded as words nobody said.
    func heard(_ chunk: PCMChunk) -> PCMChunk {
        guard let turn else { return chunk }
        let guardsEcho = chunk.echo == .echo
        let echo = turn.simultaneous ? chunk.echoAlone || (guardsEcho && (turn.speechStart == nil || turn.underEcho.yielded))
            : guardsEcho && turn.bargeIn?.detectedAt == nil
        return echo ? PCMChunk(format: chunk.format, samples: Array(repeating: 0, count: chunk.samples.count)) : chunk
    }

    /// Notes what the echo guard made of `chunk`, about to be heard by the open request, where
    /// it tells whether the speaker of a simultaneous turn goes on under their clauses.
    mutating func guardTold(_ chunk: PCMChunk) {
        guard turn?.simultaneous == true else { return }
        turn?.underEcho.note(chunk)
    }

    /// Drops the open request; returns it, for the caller to cancel.
    mutating func detach() -> (any RecognitionRequest)? {
        defer { turn = nil }
        return turn?.request
    }

    /// Drops the open request if a barge-in opened it; returns it, for the caller to cancel.
    mutating func detachBargeIn() -> (any RecognitionRequest)? {
        guard turn?.bargeIn != nil else { return nil }
        return detach()
    }

    /// How `error`, a failed recognition, is taken.
    static func failure(_ error: any Error) -> Failure {
        switch error as? RecognitionError {
        case let .utteranceTooLong(_, partial)?: return .tooLong(partial: partial)
        case .emptyRecognition?, .speechTimeout?: return .nothingHeard
        default: return .failed
        }
    }

    /// `sides`' audio server is gone.
    mutating func lost(_ sides: Set<DialogueSide>) { lostAudio.formUnion(sides) }

    /// `sides`' audio server is back.
    mutating func back(_ sides: Set<DialogueSide>) { lostAudio.subtract(sides) }

    /// Why `side`, in `locale`, cannot speak, or nil when it can. `microphone`: whether the side
    /// has one; `separate`: whether each side has its own devices.
    func typedOnlyReason(for side: DialogueSide, locale: LocaleTag, usesMicrophone: Bool, microphone: Bool,
                         separate: Bool, recognizer: Bool) -> String? {
        if !usesMicrophone { return "the microphone is off (--typed-only)" }
        if !microphone { return separate ? "side \(side)'s microphone is unavailable" : "no microphone is available" }
        if lostAudio.contains(side) { return separate ? "side \(side)'s audio server is gone" : "the audio server is gone" }
        return typedOnlyReason(locale: locale, microphone: microphone, recognizer: recognizer)
    }

    /// Why a person in `locale` cannot speak on a microphone of their own, or nil when they can
    /// (a room's party; the end of a dialogue side's reason). `microphone`: they have one;
    /// `recognizer`: the conversation has one.
    func typedOnlyReason(locale: LocaleTag, microphone: Bool, recognizer: Bool) -> String? {
        if !microphone { return "no microphone is available" }
        guard recognizer else { return "speech recognition is unavailable" }
        // The recognizer's own answer (Whisper serves a whole language, in its own codes: nb → no),
        // asked when the side got its locale.
        guard servedLocales[locale] == true else {
            return "no speech model for \(locale) (installed: \(RecognitionError.listed(recognizableLocales.sorted())))"
        }
        return nil
    }
}

/// The recognition request of the party that is listening: a dialogue's side, or a room's party.
struct ListeningTurn: Sendable {
    /// The party heard, from 0 (a dialogue's side A is 0).
    let party: Int
    let request: any RecognitionRequest
    /// Session time the request began: the recognizer's times are relative to it.
    let startedAt: Double
    var speechStart: Double?
    var speechEnd: Double?
    /// The key was pressed: `finish()` is running and further audio is not fed.
    var finishing = false
    /// Set when the request was opened by a person speaking over a translation.
    var bargeIn: BargeInContext?
    /// Whether the request commits clauses while the side speaks (simultaneous interpretation).
    var simultaneous = false
    /// The end of what the request heard, kept on the microphone both sides share for the
    /// voice's pitch (`VoiceProfiles`).
    var voice = HeardVoice()
    /// For a simultaneous turn: whether its speaker is still heard under their clauses.
    var underEcho = SpeakerUnderEcho()
}

/// A request that hears a person over a translation: one opened when the echo guard heard a
/// person over it, or one that listens on from the end of a turn's speech while the turn is
/// translated and spoken (`TurnCoordinator.listenOn`). Playback is held from the moment the
/// guard hears a person until their words decide.
struct BargeInContext: Sendable {
    /// Session time the echo guard declared a person over the translation; nil while it has not.
    var detectedAt: Double?
    /// What was being spoken when they began: an utterance that repeats it is its echo. Nil for
    /// a request opened before the translation played (it is the translation playing then).
    var spokenText: String?
}

extension ListeningTurn {
    /// A dialogue's side listening.
    init(side: DialogueSide, request: any RecognitionRequest, startedAt: Double, bargeIn: BargeInContext? = nil,
         simultaneous: Bool = false) {
        self.init(party: side.index, request: request, startedAt: startedAt, bargeIn: bargeIn, simultaneous: simultaneous)
    }

    /// The dialogue's side listening (party 0 is A, 1 is B).
    var side: DialogueSide { party == 0 ? .a : .b }

    /// How feeding the request one chunk ended.
    enum Fed {
        /// What the recognizer made of it, for the party's coordinator to act on in order.
        case heard([RecognitionEvent])
        /// The request gave its final to an earlier chunk, whose handling is under way (chunks
        /// are fed while an earlier one is decoded): this one is past the utterance, and nobody's.
        case pastTheUtterance
        /// The recognition failed (`MicrophoneListening.failure` says how it is taken).
        case failed(any Error)
    }

    /// Feeds `chunk`, as the request hears it, to the request: a dialogue's and a room's party alike.
    nonisolated(nonsending) func feed(_ chunk: PCMChunk) async -> Fed {
        do {
            return .heard(try await request.append(chunk))
        } catch RecognitionError.requestReused {
            return .pastTheUtterance
        } catch {
            return .failed(error)
        }
    }
}
