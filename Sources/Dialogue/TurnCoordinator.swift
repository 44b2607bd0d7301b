import ParleyCore

/// Runs the conversation: whose turn it is, what the microphone is for, and
/// the pipeline of each turn (recognize → translate → speak), as an explicit
/// state machine (`DialogueState`).
///
/// The coordinator owns one audio source and sink for the whole conversation (or one
/// of each per side, a second entry of `ConversationStages.devices`) and only moves the capture gate: open
/// while a side is listening (on that side's microphone), closed otherwise, and opened
/// again the moment the speaker has drained. Every
/// engine failure becomes an `.error` event and a state a person can leave;
/// nothing here traps or crashes. Everything it does is reported on `events`.
///
/// ```swift
/// let coordinator = TurnCoordinator(configuration: configuration, stages: stages, transcript: writer)
/// Task { for await event in coordinator.events { render(event) } }
/// await coordinator.start()
/// await coordinator.submitTyped("Where is the station?")
/// ```
public actor TurnCoordinator {
    /// Everything that happens, in order, for one consumer. Finishes when the conversation ends.
    public nonisolated let events: AsyncStream<DialogueEvent>
    let continuation: AsyncStream<DialogueEvent>.Continuation
    let stages: ConversationStages
    /// Each device's speaker (one both sides share, or one per side), nil where there is none.
    let speakers: [Speaker?]
    let clock: SessionClock

    /// The settings as they are now (commands change them).
    public internal(set) var configuration: DialogueConfiguration
    /// Where the conversation is.
    public internal(set) var state: DialogueState
    /// Where finished turns are written.
    var transcript: TranscriptLog

    /// Advanced whenever the current activity is abandoned; late results of an older one are ignored.
    var epoch = TurnEpoch()
    /// The open recognition request, and whether each side can speak (`TurnCoordinator+Listening`).
    var microphone = MicrophoneListening()
    var correcting: TurnDraft?
    var activeTurn: TurnDraft?
    var turnTask: Task<Void, Never>?
    /// Who may speak next, the typed lines waiting for a turn, who spoke last and each side's voice.
    var floor = Floor()
    /// Listens for a person over a translation, and judges their words (`TurnCoordinator+BargeIn`).
    var bargeInWatch = BargeInWatch()
    /// The input has ended (`finishAndStop`): what was begun is finished, and nobody barges in
    /// any more, so the conversation settles even where a translation's echo keeps being heard
    /// as someone speaking over it.
    public internal(set) var inputEnded = false
    /// The turn interpreted while it is spoken, and its clause queue (`TurnCoordinator+Simultaneous`).
    let interpreter = Interpreter()
    var backgroundTasks: [Task<Void, Never>] = []
    var readyWaiters: [CheckedContinuation<Void, Never>] = []
    /// How many events were handed to `events` (not counting any after it finished).
    public private(set) var emittedEvents = 0

    /// Creates a coordinator; nothing happens until `start()`.
    /// `transcript` receives one line per finished turn; `clock` is the transcript's time base.
    public init(configuration: DialogueConfiguration, stages: ConversationStages,
                transcript: TranscriptWriter? = nil, clock: SessionClock = .startingNow()) {
        (events, continuation) = AsyncStream.makeStream(of: DialogueEvent.self)
        self.configuration = configuration
        self.stages = stages
        speakers = stages.devices.map { $0.sink.map(Speaker.init) }
        self.transcript = TranscriptLog(writer: transcript)
        self.clock = clock
        state = .idle(.a)
    }

    /// Reports what is missing, starts consuming audio and gives side A the turn.
    public func start() async {
        if let recognizer = stages.recognizer {
            microphone.recognizableLocales = Set(await recognizer.supportedLocales())
            for side in [DialogueSide.a, .b] { await learnWhetherServed(configuration[side].locale) }
        }
        let notices = stages.limitations + configuration.openingNotices(
            separateDevices: stages.hasSeparateDevices, canSpeak: stages.synthesizer != nil && !stages.speakers.isEmpty)
        for notice in notices { emit(.notice(notice)) }
        let step = TranslationStep(translator: stages.translator)
        for notice in await step.notices(between: configuration[.a].locale, and: configuration[.b].locale, noTranslator: true) {
            emit(.notice(notice))
        }
        startBackgroundTasks()
        await beginTurn(.a)
    }

    /// Returns when the conversation waits for a person (idle, listening or
    /// correcting, nothing queued) or has ended.
    public func waitUntilReady() async {
        guard !isSettled else { return }
        await withCheckedContinuation { readyWaiters.append($0) }
    }

    var isSettled: Bool {
        state == .ended || (state.awaitsInput && turnTask == nil && !floor.hasWaitingLine && !floor.hasContinuation
                            && !(microphone.turn?.finishing ?? false) && interpreter.current == nil)
    }

    func setState(_ new: DialogueState) {
        if new != state {
            state = new
            emit(.stateChanged(new))
        }
        resumeWaitersIfSettled()
    }

    func resumeWaitersIfSettled() {
        guard isSettled else { return }
        let waiters = readyWaiters
        readyWaiters = []
        waiters.forEach { $0.resume() }
    }

    func emit(_ event: DialogueEvent) {
        if case .enqueued = continuation.yield(event) { emittedEvents += 1 }
    }

    func report(_ stage: StageError.Stage, _ error: any Error) {
        if let stageError = error as? StageError {
            emit(.error(stageError.description))
        } else {
            emit(.error(StageError(stage, error).description))
        }
    }

    private func startBackgroundTasks() {
        if configuration.usesMicrophone {
            for (side, source) in stages.microphones {
                backgroundTasks.append(Task { [weak self] in
                    for await chunk in source.capturedChunks {
                        guard let self else { return }
                        await self.consume(chunk, from: side)
                    }
                })
            }
        }
        for (side, audioEvents) in stages.audioReports {
            backgroundTasks.append(Task { [weak self] in
                for await event in audioEvents {
                    guard let self else { return }
                    await self.handle(event, from: side)
                }
            })
        }
    }
}
