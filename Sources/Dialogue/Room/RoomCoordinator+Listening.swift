import ParleyCore

/// Listening: every party heard all the time on their own microphone, one request each on
/// the shared recognizer, and what its events mean for the party.
extension RoomCoordinator {
    /// Why party `index` cannot speak, or nil when they can: as a dialogue's side, on their own
    /// microphone. `recognizable`: the locales the recognizer lists.
    func typedOnlyReason(_ index: Int, recognizable: Set<LocaleTag>) async -> String? {
        if let recognizer = stages.recognizer {
            parties[index].listening.recognizableLocales = recognizable
            parties[index].listening.servedLocales[locales[index]] = await recognizer.serves(locales[index])
        }
        return parties[index].listening.typedOnlyReason(locale: locales[index], microphone: devices(of: index).source != nil,
                                                        recognizer: stages.recognizer != nil)
    }

    /// Hears one party for as long as the room runs.
    func listen(to source: any AudioSource, party index: Int) async {
        for await chunk in source.capturedChunks {
            guard !stopped else { return }
            await hear(chunk, party: index)
        }
    }

    func hear(_ chunk: PCMChunk, party index: Int) async {
        guard let recognizer = stages.recognizer, parties[index].typedOnlyReason == nil else { return }
        if parties[index].listening.turn == nil {
            let token = parties[index].epoch.advance()
            let options = RecognitionOptions.conversation(endpointMilliseconds: settings.endpointMilliseconds,
                                                          interpreting: settings.simultaneous ? settings.commitPolicy : nil,
                                                          channel: "party \(index + 1)")
            do {
                let request = try await recognizer.makeRequest(locale: locales[index], options: options)
                guard parties[index].epoch.isCurrent(token), !stopped else { _ = await request.cancel(); return }
                parties[index].listening.turn = ListeningTurn(party: index, request: request,
                                                              startedAt: clock.now() - chunk.duration)
            } catch {
                parties[index].typedOnlyReason = "\(error)"
                return emit(.error("party \(index + 1) is typed-only: speech cannot be recognized: \(error)"))
            }
        }
        guard let turn = parties[index].listening.turn else { return }
        let token = parties[index].epoch.current
        switch await turn.feed(chunk) {
        case let .heard(events):
            for event in events where parties[index].epoch.isCurrent(token) { await handle(event, party: index) }
        case .pastTheUtterance:
            return
        case let .failed(error):
            guard parties[index].epoch.isCurrent(token) else { return }
            _ = parties[index].listening.detach()
            await recognitionFailed(error, party: index, turn: turn)
        }
    }

    func handle(_ event: RecognitionEvent, party index: Int) async {
        switch parties[index].listening.note(event) {
        case .speechStarted:
            emit(.speechStarted(party: index + 1))
            await holdPlayback(of: index)
        case let .partial(text):
            emit(.partial(party: index + 1, text: text))
        case let .clause(clause, requestStart):
            interpret(clause, party: index, requestStart: requestStart)
        case let .final(result, turn):
            _ = parties[index].listening.detach()
            parties[index].epoch.advance()
            await recognized(result, party: index, turn: turn)
        case .speechEnded, .bargeInFinal, .nothing:
            break
        }
    }

    /// The final result of party `index`'s request `turn`.
    func recognized(_ result: RecognitionResult, party index: Int, turn: ListeningTurn?) async {
        await decideBargeIn(of: index, readings: result.hypotheses.map { $0.map(\.text) } ?? [result.text])
        let text = result.text.trimmingCharacters(in: .whitespacesAndNewlines)
        if parties[index].live != nil || !(result.clauses ?? []).isEmpty {
            return interpretationEnded(text, clauses: result.clauses ?? [], confidence: result.confidence, heardBy: turn,
                                       party: index)
        }
        guard !text.isEmpty else { return }
        await deliver(party: index, text: text, input: .speech, confidence: result.confidence,
                      speech: Self.speech(of: turn, now: clock.now()))
    }

    /// Party `index`'s request `turn` failed.
    func recognitionFailed(_ error: any Error, party index: Int, turn: ListeningTurn?) async {
        await decideBargeIn(of: index, readings: [])
        if parties[index].live != nil, !Self.handsBackItsPartial(error) {
            interpretationEnded(nil, clauses: [], confidence: nil, heardBy: turn, party: index)
        }
        switch MicrophoneListening.failure(error) {
        case .nothingHeard:
            return  // nobody spoke, or nothing worth a word: the next request listens on
        case let .tooLong(partial):
            emit(.notice("party \(index + 1) spoke longer than one utterance may last; what was heard is kept"))
            return await recognized(partial, party: index, turn: turn)
        case .failed:
            emit(.error("party \(index + 1): speech could not be recognized: \(error)"))
        }
    }

    /// When the speech `turn` heard started and ended, on the room's clock (`now` for what is not known).
    static func speech(of turn: ListeningTurn?, now: Double) -> (start: Double, end: Double) {
        (turn?.speechStart ?? now, turn?.speechEnd ?? now)
    }

    /// Whether `error` hands back what was heard (which then ends the utterance as it would
    /// have ended); any other failure of an utterance being interpreted leaves it without its
    /// end, and what was committed is the utterance.
    static func handsBackItsPartial(_ error: any Error) -> Bool {
        if case .tooLong = MicrophoneListening.failure(error) { return true }
        return false
    }
}
