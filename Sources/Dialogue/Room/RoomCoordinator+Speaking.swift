import ParleyCore

/// Translating and speaking: an utterance translated once into each other language, written
/// once, and queued for each listener's own speaker.
extension RoomCoordinator {
    /// An utterance of party `index`: shown, translated into each other language once,
    /// written, and queued for every other party's speaker.
    func deliver(party index: Int, text: String, input: InputKind, confidence: Double?,
                         speech: (start: Double, end: Double)) async {
        utterances += 1
        pending += 1
        defer { settle() }
        let utterance = RoomUtterance(number: utterances, party: index + 1, locale: locales[index], text: text,
                                      input: input, confidence: confidence, speechStart: speech.start,
                                      speechEnd: speech.end, recognized: clock.now())
        emit(.heard(utterance))
        let translations = await translate(text, from: index)
        for translation in translations { emit(.translated(number: utterance.number, translation)) }
        writeTranscript(utterance, translations)
        queue(translations, number: utterance.number)
    }

    /// Queues each translation for the speakers of the parties it is for.
    func queue(_ translations: [RoomTranslation], number: Int, sourceEnd: Double? = nil) {
        for translation in translations {
            guard let text = translation.text else { continue }
            for listener in translation.parties {
                pending += 1
                parties[listener - 1].speaker?.yield(SpeechJob(number: number, text: text, locale: translation.locale,
                                                               sourceEnd: sourceEnd))
            }
        }
    }

    /// `text`, said by party `speaker`, in each language of the other parties.
    func translate(_ text: String, from speaker: Int) async -> [RoomTranslation] {
        let listeners = locales.enumerated().filter { $0.offset != speaker }.map { (party: $0.offset + 1, locale: $0.element) }
        return await TranslationStep(translator: stages.translator)
            .translations(of: text, from: locales[speaker], for: listeners, clock: clock)
    }

    /// Speaks what is queued for party `index`, in order, on their own speaker.
    func speak(_ jobs: AsyncStream<SpeechJob>, to index: Int) async {
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
            if parties[index].interruptedUtterance == job.number { continue }  // they interrupted it
            guard let speaker = speakers[index], let synthesizer = stages.synthesizer else { continue }
            // A clause interpreted while its party speaks is spoken faster the further this
            // listener is behind its end.
            let speed = job.sourceEnd.map { InterpretationPace.speed(forLag: clock.now() - $0) } ?? 1
            let voice = settings.voices.indices.contains(index) ? settings.voices[index] : nil
            let utterance = Utterance(text: job.text, voice: voice.map(VoiceSelection.identifier) ?? .locale(job.locale),
                                      rate: InterpretationPace.rate(Utterance.defaultRate, fasterBy: speed))
            let outcome = await speaker.say(utterance, number: job.number, with: synthesizer, clock: clock,
                                            while: { !stopped }) { _ in
                emit(.speaking(number: job.number, party: index + 1))
            }
            switch outcome {
            case .spoken:
                parties[index].unanswered = nil
            case .abandoned:
                guard !stopped else { return }
            case let .failed(failure, _):
                emit(.notSpoken(number: job.number, party: index + 1, reason: failure.description))
                if case let .unanswered(abandoned) = failure {
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
}
