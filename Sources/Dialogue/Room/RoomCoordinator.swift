public import ParleyCore
import Foundation

/// A room: any number of parties, each with their own microphone and speaker, each
/// speaking their own language, all of them at once if they like.
///
/// Every party is heard all the time on their own microphone (voice activity is the
/// recognizer's detector, one per party). Their requests share the one recognizer, which
/// decodes one at a time in the order asked. Each utterance is translated once into each
/// language of the other parties (directly or through a pivot, as the translator routes it),
/// written to the transcript once, and spoken to each listener on their own speaker: one
/// queue per listener, so the listeners hear in parallel and each hears in order.
///
/// With `RoomSettings.simultaneous`, each clause a party ends while still speaking is
/// translated and queued for every listener at once (`RoomCoordinator+Interpreting`); with
/// `bargeIn`, a listener who starts to speak holds the translation they hear, and their words
/// decide whether it stops (`RoomCoordinator+BargeIn`).
///
/// A party whose audio server is lost is away: the room says so in one line and goes on;
/// what is said meanwhile is still translated and written, and printed, but not spoken to
/// them. When their session reconnects they are back.
///
/// ```swift
/// let room = RoomCoordinator(locales: locales, stages: stages, transcript: writer)
/// Task { for await event in room.events { render(event) } }
/// await room.start()
/// await room.type("Bonjour à tous", as: 2)
/// ```
public actor RoomCoordinator {
    /// Everything the room does, in order.
    public nonisolated let events: AsyncStream<RoomEvent>
    private let continuation: AsyncStream<RoomEvent>.Continuation
    /// How many events were handed to `events`.
    public private(set) var emittedEvents = 0
    /// The parties' languages, from party 1.
    public nonisolated let locales: [LocaleTag]
    let stages: ConversationStages
    let clock: SessionClock
    let settings: RoomSettings
    var transcript: TranscriptLog

    /// What the room knows of one party while it runs.
    struct PartyState {
        var typedOnlyReason: String?
        var away = false
        /// The request hearing them now, with its times; a new one opens with their next audio.
        var listening = MicrophoneListening()
        /// Advanced whenever their request is dropped, so that answers to one no longer wanted are dropped.
        var epoch = TurnEpoch()
        /// What is queued for their speaker.
        var speaker: AsyncStream<SpeechJob>.Continuation?
        /// Their speaker's server did not report the end of the last playback (a frozen
        /// server): after the end of input, what is still queued for them is not spoken.
        var unanswered: WaitAbandoned?
        /// Their utterance being interpreted while they speak.
        var live: LiveUtterance?
        /// The last piece of their utterances' work (a clause or an utterance to translate and
        /// queue): the next waits for it, so that what they said reaches the listeners in order.
        var chain: Task<Void, Never>?
        /// The utterance they interrupted: what is still queued of it is not spoken to them.
        var interruptedUtterance: Int?
    }

    /// A translation waiting for a listener's speaker.
    struct SpeechJob: Sendable {
        var number: Int
        var text: String
        var locale: LocaleTag
        /// For a clause interpreted while its party speaks: when it ended in their speech, on
        /// the room's clock. The further the listener is behind it, the faster it is spoken.
        var sourceEnd: Double?
    }

    var parties: [PartyState]
    /// Each party's speaker, nil where they have none.
    let speakers: [Speaker?]
    /// The clauses of each utterance being interpreted, by its number, until it is written.
    var clauses: [Int: [RoomClause]] = [:]
    var tasks: [Task<Void, Never>] = []
    var utterances = 0
    /// Utterances being translated, and translations queued or being spoken.
    var pending = 0
    var settleWaiters: [CheckedContinuation<Void, Never>] = []
    private var started = false
    var stopped = false
    /// The input has ended (`finishAndStop`): a speaker whose server stopped answering
    /// is given up on for what is still queued for it.
    var inputEnded = false

    /// Creates a room; `transcript` gets one JSON line per utterance (nil writes none).
    public init(locales: [LocaleTag], stages: ConversationStages, transcript: TranscriptWriter? = nil,
                settings: RoomSettings = RoomSettings(), clock: SessionClock = .startingNow()) {
        self.locales = locales
        self.stages = stages
        self.transcript = TranscriptLog(writer: transcript, entryName: "utterance", movable: false)
        self.settings = settings
        self.clock = clock
        parties = Array(repeating: PartyState(), count: locales.count)
        speakers = locales.indices.map { stages.devices(ofParty: $0)?.sink.map(Speaker.init) }
        (events, continuation) = AsyncStream.makeStream(of: RoomEvent.self)
    }

    /// Party `index`'s microphone and speaker (none where they have neither).
    func devices(of index: Int) -> PartyDevices { stages.devices(ofParty: index) ?? PartyDevices() }

    /// Whether party `number` (from 1) is away.
    public func isAway(_ number: Int) -> Bool { parties.indices.contains(number - 1) && parties[number - 1].away }

    /// Opens every party's microphone and speaker queue; returns once the room listens.
    public func start() async {
        guard !started else { return }
        started = true
        for limitation in stages.limitations { emit(.notice(limitation)) }
        // The recognizer's list is asked once (a Wyoming server answers it over the network).
        let recognizable = Set(await stages.recognizer?.supportedLocales() ?? [])
        for index in parties.indices {
            parties[index].typedOnlyReason = await typedOnlyReason(index, recognizable: recognizable)
            emit(.joined(party: index + 1, locale: locales[index], place: devices(of: index).place,
                         typedOnlyReason: parties[index].typedOnlyReason))
        }
        for index in parties.indices {
            let (jobs, queue) = AsyncStream.makeStream(of: SpeechJob.self)
            parties[index].speaker = queue
            tasks.append(Task { await self.speak(jobs, to: index) })
            if let audioEvents = devices(of: index).audioEvents {
                tasks.append(Task { await self.follow(audioEvents, of: index) })
            }
            if parties[index].typedOnlyReason == nil, let source = devices(of: index).source {
                do {
                    try await source.startListening()
                    tasks.append(Task { await self.listen(to: source, party: index) })
                } catch {
                    parties[index].typedOnlyReason = "the microphone cannot be opened: \(error)"
                    emit(.error("party \(index + 1) is typed-only: the microphone cannot be opened: \(error)"))
                }
            }
        }
        emit(.ready)
    }

    /// A line typed for party `number` (from 1): an utterance of theirs.
    public func type(_ text: String, as number: Int) async {
        let line = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !stopped else { return }
        guard parties.indices.contains(number - 1) else {
            return emit(.error("there is no party \(number) (parties 1–\(parties.count))"))
        }
        guard !line.isEmpty else { return }
        let now = clock.now()
        await deliver(party: number - 1, text: line, input: .typed, confidence: nil, speech: (now, now))
    }

    /// Returns once nothing is being translated or spoken.
    public func waitUntilSettled() async {
        guard pending > 0 else { return }
        await withCheckedContinuation { settleWaiters.append($0) }
    }

    func emit(_ event: RoomEvent) {
        emittedEvents += 1
        continuation.yield(event)
    }

    /// The room has ended: `events` finishes.
    func finishEvents() {
        continuation.finish()
    }
}
