import ParleyCore

/// Simultaneous interpretation in a room (`RoomSettings.simultaneous`): each clause a party
/// ends while still speaking (`RecognitionEvent.clause`) is translated once into each other
/// language and queued for every listener at once, each on their own speaker. At the endpoint
/// the final result lists every clause again, the tail last: those not received yet follow,
/// and the utterance is shown and written once, its translations the clauses' joined, with
/// each clause and its times. A party's clauses and utterances reach the listeners in the
/// order they were said: each waits for the one before (`afterWhatCameBefore`). A listener
/// who falls behind hears the clauses faster (`InterpretationPace`); clauses are never joined.
extension RoomCoordinator {
    /// A clause party `index` ended while still speaking.
    func interpret(_ clause: RecognizedClause, party index: Int, requestStart: Double) {
        guard settings.simultaneous else { return }
        let live = parties[index].live ?? beginInterpreting(index, requestStart: requestStart)
        parties[index].live?.received += 1
        let arrived = clock.now()
        afterWhatCameBefore(party: index) {
            await self.translate(clause, of: live, party: index, committed: arrived)
        }
    }

    /// The end of party `index`'s utterance interpreted while spoken: `text` is the whole
    /// utterance, nil when its end was lost (what was committed is then the utterance).
    /// `turn`: the request that heard it (the clauses' times are relative to its start).
    func interpretationEnded(_ text: String?, clauses ended: [RecognizedClause], confidence: Double?,
                             heardBy turn: ListeningTurn?, party index: Int) {
        let speech = Self.speech(of: turn, now: clock.now())
        let live = parties[index].live ?? beginInterpreting(index, requestStart: turn?.startedAt ?? speech.start)
        parties[index].live = nil
        let now = clock.now()
        for clause in ended.dropFirst(live.received) {
            afterWhatCameBefore(party: index) {
                await self.translate(clause, of: live, party: index, committed: now)
            }
        }
        afterWhatCameBefore(party: index) {
            await self.complete(live.number, party: index, text: text, confidence: confidence, speech: speech)
        }
    }

    private func beginInterpreting(_ index: Int, requestStart: Double) -> LiveUtterance {
        utterances += 1
        let live = LiveUtterance(number: utterances, requestStart: requestStart)
        parties[index].live = live
        clauses[live.number] = []
        return live
    }

    /// Runs `work` once party `index`'s work before it is done; the room is not settled until it is.
    func afterWhatCameBefore(party index: Int, _ work: @escaping @Sendable () async -> Void) {
        pending += 1
        let previous = parties[index].chain
        parties[index].chain = Task {
            await previous?.value
            await work()
            self.settle()
        }
    }

    private func translate(_ clause: RecognizedClause, of live: LiveUtterance, party index: Int, committed: Double) async {
        guard !stopped else { return }
        let translations = await translate(clause.text, from: index)
        emit(.clause(number: live.number, party: index + 1, text: clause.text, translations: translations))
        let sourceEnd = live.requestStart + clause.end
        clauses[live.number, default: []].append(
            RoomClause(text: clause.text, sourceStart: live.requestStart + clause.start, sourceEnd: sourceEnd,
                       committed: committed, isTail: clause.isTail, translations: translations))
        queue(translations, number: live.number, sourceEnd: sourceEnd)
    }

    /// The utterance as a whole: shown, its translations the clauses' joined, written once.
    private func complete(_ number: Int, party index: Int, text: String?, confidence: Double?,
                          speech: (start: Double, end: Double)) {
        let records = clauses.removeValue(forKey: number) ?? []
        let said = (text ?? records.map(\.text).joined(separator: " ")).trimmingCharacters(in: .whitespacesAndNewlines)
        guard !stopped, !said.isEmpty else { return }
        let utterance = RoomUtterance(number: number, party: index + 1, locale: locales[index], text: said,
                                      input: .speech, confidence: confidence, speechStart: speech.start,
                                      speechEnd: speech.end, recognized: clock.now())
        emit(.heard(utterance))
        let translations = RoomClause.joined(records)
        for translation in translations { emit(.translated(number: number, translation)) }
        writeTranscript(utterance, translations, clauses: records)
    }
}

/// A party's utterance being interpreted while they speak.
struct LiveUtterance: Sendable {
    /// Its number in the room.
    let number: Int
    /// When its request began, on the room's clock: the clauses' times are relative to it.
    let requestStart: Double
    /// How many of its clauses were received (the final result lists them all again).
    var received = 0
}

/// One clause of an utterance interpreted while spoken, as the room's transcript keeps it.
public struct RoomClause: Sendable, Equatable {
    /// The committed words.
    public var text: String
    /// Where its first word starts and its last word ends, on the room's clock.
    public var sourceStart: Double
    public var sourceEnd: Double
    /// When the recognizer committed it.
    public var committed: Double
    /// Whether it is the tail decoded at the endpoint.
    public var isTail: Bool
    /// Its translation into each other language.
    public var translations: [RoomTranslation]

    /// Each language's translation of the whole utterance: its clauses' translations joined.
    static func joined(_ clauses: [RoomClause]) -> [RoomTranslation] {
        guard let first = clauses.first else { return [] }
        return first.translations.indices.map { group in
            let parts = clauses.compactMap { $0.translations.indices.contains(group) ? $0.translations[group] : nil }
            let texts = parts.compactMap(\.text)
            var pivots: [String] = []
            for pivot in parts.flatMap(\.pivots) where !pivots.contains(pivot) { pivots.append(pivot) }
            return RoomTranslation(parties: first.translations[group].parties, locale: first.translations[group].locale,
                                   text: texts.isEmpty ? nil : texts.joined(separator: " "), pivots: pivots,
                                   unknownWords: parts.flatMap(\.unknownWords),
                                   failure: texts.isEmpty ? parts.compactMap(\.failure).first : nil,
                                   translated: parts.map(\.translated).max() ?? first.translations[group].translated)
        }
    }
}
