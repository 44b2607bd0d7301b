import ParleyCore

/// Barge-in in a room (`RoomSettings.bargeIn`): a listener who starts to speak while a
/// translation plays to them holds it (`pausePlayback` on their speaker). Their words decide,
/// as in a dialogue (`BargeInWatch.verdict`): none, a backchannel or the translation's own
/// words let it play on where it was held; anything else stops it, and what is still queued
/// of that utterance for them is not spoken. Their words are their utterance either way, and
/// the others hear it. Each party has their own microphone and speaker, so their own voice
/// is told from the translation by who is speaking, not by an echo guard.
extension RoomCoordinator {
    /// Party `index` started speaking: the translation playing to them is held.
    func holdPlayback(of index: Int) async {
        guard settings.bargeIn, !inputEnded, parties[index].heldSince == nil, parties[index].playing != nil,
              let sink = devices(of: index).sink else { return }
        parties[index].heldSince = clock.now()
        await sink.pausePlayback()
        emit(.bargeIn(party: index + 1))
    }

    /// Party `index`'s words are known (`readings`, none when nothing was recognized): they
    /// stop the held translation, or it plays on.
    func decideBargeIn(of index: Int, readings: [String]) async {
        guard let heldSince = parties[index].heldSince else { return }
        parties[index].heldSince = nil
        guard let sink = devices(of: index).sink else { return }
        guard let playing = parties[index].playing else { return await sink.resumePlayback() }
        if let reason = BargeInWatch.verdict(readings, spokenText: playing.job.text) {
            emit(.bargeInDismissed(party: index + 1, reason: reason))
            return await sink.resumePlayback()
        }
        parties[index].playback += 1
        parties[index].interruptedUtterance = playing.job.number
        await sink.cancelPlayback()
        let played = max(0, heldSince - (playing.start ?? heldSince))
        emit(.interrupted(number: playing.job.number, party: index + 1, playedSeconds: played))
    }
}
