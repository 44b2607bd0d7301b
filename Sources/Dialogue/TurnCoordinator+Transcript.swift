extension TurnCoordinator {
    /// Writes a finished turn to the transcript. A failed write is reported once;
    /// the turn waits and is written, with any others, when the file takes them again.
    func write(_ entry: TranscriptEntry) {
        reportTranscript(transcript.append(entry.jsonLine))
    }

    func reportTranscript(_ outcome: TranscriptLog.Outcome) {
        if let report = transcript.report(outcome) { emit(report.event()) }
    }

    /// The conversation is ending: lines still waiting get a last chance, and
    /// are reported when the file still does not take them.
    func flushTranscript() {
        if let report = transcript.lastChance() { emit(report.event()) }
    }

    /// `:transcript FILE`: writes the turns so far to `path` and goes on writing there.
    public func switchTranscript(to path: String) {
        do {
            let count = try transcript.moveTo(path)
            emit(.notice("transcript: \(path) (\(count == 1 ? "1 turn" : "\(count) turns") so far)"))
        } catch {
            emit(.error(String(describing: error)))
        }
    }

    /// Where the transcript is being written, if anywhere.
    public var transcriptPath: String? { transcript.writer?.path }
}
