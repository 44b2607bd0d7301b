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
/// A party whose audio server is lost is away: the room says so in one line and goes on;
/// what is said meanwhile is still translated and written, and printed, but not spoken to
/// them. When their session reconnects they are back.
///
/// ```swift
/// let room = RoomCoordinator(stages: stages, transcript: writer)
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
    let stages: RoomStages
    let clock: SessionClock
    let endpointMilliseconds: Int
    var transcript: TranscriptLog

    /// What the room knows of one party while it runs.
    struct PartyState {
        var typedOnlyReason: String?
        var away = false
        /// The request hearing them now; a new one opens with their next audio.
        var request: (any RecognitionRequest)?
        /// Counts requests, so that answers to one no longer wanted are dropped.
        var epoch = 0
        var requestStart = 0.0
        var speechStart: Double?
        var speechEnd: Double?
        /// What is queued for their speaker.
        var speaker: AsyncStream<SpeechJob>.Continuation?
        /// Their speaker's server did not report the end of the last playback (a frozen
        /// server): after the end of input, what is still queued for them is not spoken.
        var unanswered: WaitAbandoned?
    }

    /// A translation waiting for a listener's speaker.
    struct SpeechJob: Sendable {
        var number: Int
        var text: String
        var locale: LocaleTag
    }

    var parties: [PartyState]
    var tasks: [Task<Void, Never>] = []
    private var utterances = 0
    /// Utterances being translated, and translations queued or being spoken.
    private var pending = 0
    private var settleWaiters: [CheckedContinuation<Void, Never>] = []
    private var started = false
    var stopped = false
    /// The input has ended (`finishAndStop`): a speaker whose server stopped answering
    /// is given up on for what is still queued for it.
    var inputEnded = false

    /// Creates a room; `transcript` gets one JSON line per utterance (nil writes none).
    public init(stages: RoomStages, transcript: TranscriptWriter? = nil, endpointMilliseconds: Int = 500,
                clock: SessionClock = .startingNow()) {
        self.stages = stages
        self.transcript = TranscriptLog(writer: transcript)
        self.endpointMilliseconds = endpointMilliseconds
        self.clock = clock
        parties = Array(repeating: PartyState(), count: stages.members.count)
        (events, continuation) = AsyncStream.makeStream(of: RoomEvent.self)
    }

    /// The parties' languages, from party 1.
    public nonisolated var locales: [LocaleTag] { stages.members.map(\.locale) }

    /// Whether party `number` (from 1) is away.
    public func isAway(_ number: Int) -> Bool { parties.indices.contains(number - 1) && parties[number - 1].away }

    /// Opens every party's microphone and speaker queue; returns once the room listens.
    public func start() async {
        guard !started else { return }
        started = true
        for limitation in stages.limitations { emit(.notice(limitation)) }
        for index in parties.indices {
            parties[index].typedOnlyReason = await typedOnlyReason(index)
            let member = stages.members[index]
            emit(.joined(party: index + 1, locale: member.locale, place: member.place,
                         typedOnlyReason: parties[index].typedOnlyReason))
        }
        for index in parties.indices {
            let (jobs, queue) = AsyncStream.makeStream(of: SpeechJob.self)
            parties[index].speaker = queue
            tasks.append(Task { await self.speak(jobs, to: index) })
            if let audioEvents = stages.members[index].audioEvents {
                tasks.append(Task { await self.follow(audioEvents, of: index) })
            }
            if parties[index].typedOnlyReason == nil, let source = stages.members[index].source {
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

    // MARK: Listening

    private func typedOnlyReason(_ index: Int) async -> String? {
        let member = stages.members[index]
        guard member.source != nil else { return "no microphone is available" }
        guard let recognizer = stages.recognizer else { return "speech recognition is unavailable" }
        guard await recognizer.serves(member.locale) else { return "no speech model for \(member.locale)" }
        return nil
    }

    /// Hears one party for as long as the room runs.
    private func listen(to source: any AudioSource, party index: Int) async {
        for await chunk in source.capturedChunks {
            guard !stopped else { return }
            await hear(chunk, party: index)
        }
    }

    private func hear(_ chunk: PCMChunk, party index: Int) async {
        guard let recognizer = stages.recognizer, parties[index].typedOnlyReason == nil else { return }
        if parties[index].request == nil {
            parties[index].epoch += 1
            let epoch = parties[index].epoch
            let options = RecognitionOptions(endpointMilliseconds: endpointMilliseconds, channel: "party \(index + 1)")
            do {
                let request = try await recognizer.makeRequest(locale: stages.members[index].locale, options: options)
                guard parties[index].epoch == epoch, !stopped else { _ = await request.cancel(); return }
                parties[index].request = request
                parties[index].requestStart = clock.now() - chunk.duration
                (parties[index].speechStart, parties[index].speechEnd) = (nil, nil)
            } catch {
                parties[index].typedOnlyReason = "\(error)"
                return emit(.error("party \(index + 1) is typed-only: speech cannot be recognized: \(error)"))
            }
        }
        guard let request = parties[index].request else { return }
        let epoch = parties[index].epoch
        do {
            let events = try await request.append(chunk)
            for event in events where parties[index].epoch == epoch {
                await handle(event, party: index)
            }
        } catch {
            guard parties[index].epoch == epoch else { return }
            parties[index].request = nil
            await recognitionFailed(error, party: index)
        }
    }

    private func handle(_ event: RecognitionEvent, party index: Int) async {
        let start = parties[index].requestStart
        switch event {
        case let .speechStarted(at):
            parties[index].speechStart = start + at
            emit(.speechStarted(party: index + 1))
        case let .partial(text):
            emit(.partial(party: index + 1, text: text))
        case .clause:
            break
        case let .speechEnded(at):
            parties[index].speechEnd = start + at
        case let .final(result):
            parties[index].request = nil
            parties[index].epoch += 1
            await recognized(result, party: index)
        }
    }

    private func recognized(_ result: RecognitionResult, party index: Int) async {
        let text = result.text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !text.isEmpty else { return }
        let now = clock.now()
        let speech = (parties[index].speechStart ?? now, parties[index].speechEnd ?? now)
        await deliver(party: index, text: text, input: .speech, confidence: result.confidence, speech: speech)
    }

    private func recognitionFailed(_ error: any Error, party index: Int) async {
        switch error as? RecognitionError {
        case .emptyRecognition?, .speechTimeout?:
            return  // nobody spoke, or nothing worth a word: the next request listens on
        case let .utteranceTooLong(_, partial)?:
            emit(.notice("party \(index + 1) spoke longer than one utterance may last; what was heard is kept"))
            return await recognized(partial, party: index)
        default:
            emit(.error("party \(index + 1): speech could not be recognized: \(error)"))
        }
    }

    // MARK: Translating and speaking

    /// An utterance of party `index`: shown, translated into each other language once,
    /// written, and queued for every other party's speaker.
    private func deliver(party index: Int, text: String, input: InputKind, confidence: Double?,
                         speech: (start: Double, end: Double)) async {
        utterances += 1
        pending += 1
        defer { settle() }
        let member = stages.members[index]
        let utterance = RoomUtterance(number: utterances, party: index + 1, locale: member.locale, text: text,
                                      input: input, confidence: confidence, speechStart: speech.start,
                                      speechEnd: speech.end, recognized: clock.now())
        emit(.heard(utterance))
        let translations = await translate(utterance)
        for translation in translations { emit(.translated(number: utterance.number, translation)) }
        writeTranscript(utterance, translations)
        for translation in translations {
            guard let text = translation.text else { continue }
            for listener in translation.parties {
                pending += 1
                parties[listener - 1].speaker?.yield(SpeechJob(number: utterance.number, text: text, locale: translation.locale))
            }
        }
    }

    /// The utterance in each language of the other parties, once per language, in parallel.
    private func translate(_ utterance: RoomUtterance) async -> [RoomTranslation] {
        var listeners: [(locale: LocaleTag, parties: [Int])] = []
        for (index, member) in stages.members.enumerated() where index + 1 != utterance.party {
            if let group = listeners.firstIndex(where: { $0.locale == member.locale }) {
                listeners[group].parties.append(index + 1)
            } else {
                listeners.append((member.locale, [index + 1]))
            }
        }
        let translator = stages.translator
        let clock = clock
        return await withTaskGroup(of: (Int, RoomTranslation).self) { group in
            for (order, listener) in listeners.enumerated() {
                group.addTask {
                    var translation = RoomTranslation(parties: listener.parties, locale: listener.locale, text: nil,
                                                      pivots: [], unknownWords: [], failure: nil, translated: 0)
                    if listener.locale.language == utterance.locale.language {
                        translation.text = utterance.text  // the same language: heard as said
                    } else if let translator {
                        do {
                            let result = try await translator.translate(utterance.text, from: utterance.locale, to: listener.locale)
                            translation.text = result.text
                            translation.pivots = result.pivots
                            translation.unknownWords = result.unknownWords
                        } catch {
                            translation.failure = "\(error)"
                        }
                    } else {
                        translation.failure = "translation is unavailable"
                    }
                    translation.translated = clock.now()
                    return (order, translation)
                }
            }
            var results: [(Int, RoomTranslation)] = []
            for await result in group { results.append(result) }
            return results.sorted { $0.0 < $1.0 }.map(\.1)
        }
    }

    /// Speaks what is queued for party `index`, in order, on their own speaker.
    private func speak(_ jobs: AsyncStream<SpeechJob>, to index: Int) async {
        for await job in jobs {
            defer { settle() }
            guard !stopped else { return }
            guard !parties[index].away else {
                emit(.notSpoken(number: job.number, party: index + 1, reason: "party \(index + 1) is away"))
                continue
            }
            if inputEnded, let silent = parties[index].unanswered {
                emit(.notSpoken(number: job.number, party: index + 1, reason: "\(silent)"))
                continue
            }
            guard let sink = stages.members[index].sink, let synthesizer = stages.synthesizer else { continue }
            var playing = false
            do {
                let utterance = Utterance(text: job.text, voice: .locale(job.locale))
                try await synthesizer.speak(utterance, to: sink, while: { !stopped }) { event in
                    guard case .audio = event, !playing else { return }
                    playing = true
                    emit(.speaking(number: job.number, party: index + 1))
                }
                parties[index].unanswered = nil
            } catch {
                guard !stopped else { return }
                emit(.notSpoken(number: job.number, party: index + 1, reason: "\(error)"))
                if let abandoned = (error as? AudioSinkFailure)?.error as? WaitAbandoned {
                    parties[index].unanswered = abandoned
                    if inputEnded { stages.waitGivenUp(abandoned) }
                }
            }
        }
    }

    /// One job or utterance is done; wakes the waiters once nothing is left.
    func settle(all: Bool = false) {
        if all { pending = 0 } else { pending = max(0, pending - 1) }
        guard pending == 0 else { return }
        let waiters = settleWaiters
        settleWaiters = []
        waiters.forEach { $0.resume() }
    }

    // MARK: Servers

    /// Follows party `index`'s audio session: away when its server is lost, back when it returns.
    private func follow(_ events: AsyncStream<AudioEvent>, of index: Int) async {
        for await event in events {
            guard !stopped else { return }
            switch event {
            case let .serverLost(reason):
                guard !parties[index].away else { continue }
                parties[index].away = true
                emit(.away(party: index + 1, reason: reason))
                await keepWhatWasSaid(party: index)
            case .reconnected:
                guard parties[index].away else { continue }
                parties[index].away = false
                emit(.back(party: index + 1))
            default:
                continue
            }
        }
    }

    /// The server went while party `index` spoke: what was heard until then is their utterance.
    private func keepWhatWasSaid(party index: Int) async {
        guard let request = parties[index].request else { return }
        parties[index].request = nil
        parties[index].epoch += 1
        guard parties[index].speechStart != nil else { return _ = await request.cancel() }
        do {
            await recognized(try await request.finish(), party: index)
        } catch {
            await recognitionFailed(error, party: index)
        }
    }
}
