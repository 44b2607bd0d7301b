import ParleyCore

/// How a room ends. A signal or `:quit` (`stop()`) ends it now; the end of piped input
/// (`finishAndStop()`) first speaks what is queued. Every wait on the way out has a bound,
/// and one given up is handed to `ConversationStages.waitGivenUp`, named.
extension RoomCoordinator {
    /// Ends the room: stops listening and speaking, closes the sessions and engines. The
    /// transcript already holds every utterance (each is written once translated) that the
    /// file took; lines it did not take get a last chance, and are named when it still fails.
    public func stop() async {
        guard !stopped else { return }
        stopped = true
        for index in parties.indices {
            parties[index].speaker?.finish()
            parties[index].epoch.advance()
        }
        tasks.forEach { $0.cancel() }
        let requests = parties.indices.compactMap { parties[$0].listening.detach() }
        if let report = transcript.lastChance() { emit(report.event()) }
        _ = transcript.writer?.removeIfNothingWritten()
        transcript.close()
        await stages.stopPlaybackWithinBound()
        let tasks = tasks
        await stages.bounded(ConversationStages.shutdownBound, "the audio servers and the engines did not shut down") { [stages] in
            for request in requests { _ = await request.cancel() }
            for task in tasks { await task.value }
            await stages.shutdown()
        }
        settle(all: true)
        emit(.ended)
        finishEvents()
    }

    /// Waits for what is queued to be spoken, then ends the room (the end of piped input).
    /// Each translation's speech is bounded by its speaker's session (a drain the server
    /// never reports is given up past its due time); once a speaker has not answered, what
    /// is still queued for it is not spoken.
    public func finishAndStop() async {
        inputEnded = true
        await waitUntilSettled()
        await stop()
    }
}
