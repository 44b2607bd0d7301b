import ParleyCore

extension RoomCoordinator {
    /// Writes `utterance`'s line (`RoomUtterance.jsonLine`), naming the parties away now; a failed
    /// write is reported once, and the line waits for the file to take it again.
    func writeTranscript(_ utterance: RoomUtterance, _ translations: [RoomTranslation], clauses: [RoomClause]? = nil) {
        let away = parties.indices.filter { parties[$0].away }.map { $0 + 1 }
        let line = utterance.jsonLine(translations, away: away, clauses: clauses)
        if let report = transcript.report(transcript.append(line)) { emit(report.event()) }
    }
}
