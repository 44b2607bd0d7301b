extension TurnCoordinator {
    /// Writes a finished turn to the transcript; a failed write is reported.
    func write(_ entry: TranscriptEntry) {
        if let error = transcript.append(entry.jsonLine) { emit(.error(String(describing: error))) }
    }

    /// `:transcript FILE`: writes the turns so far to `path` and goes on writing there.
    public func switchTranscript(to path: String) {
        do {
            let count = try transcript.moveTo(path)
            emit(.notice("transcript: \(path) (\(count) turns so far)"))
        } catch {
            emit(.error(String(describing: error)))
        }
    }

    /// Where the transcript is being written, if anywhere.
    public var transcriptPath: String? { transcript.writer?.path }
}
