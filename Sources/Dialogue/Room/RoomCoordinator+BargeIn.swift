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
        guard settings.bargeIn, !inputEnded, let speaker = speakers[index], speaker.playing != nil else { return }
        if await speaker.hold(at: clock.now()) { emit(.bargeIn(party: index + 1)) }
    }

    /// Party `index`'s words are known (`readings`, none when nothing was recognized): they
    /// stop the held translation, or it plays on.
    func decideBargeIn(of index: Int, readings: [String]) async {
        guard let speaker = speakers[index], speaker.heldSince != nil else { return }
        guard let playing = speaker.playing else { return await speaker.resume() }
        if let reason = BargeInWatch.verdict(readings, spokenText: playing.text) {
            emit(.bargeInDismissed(party: index + 1, reason: reason))
            return await speaker.resume()
        }
        parties[index].interruptedUtterance = playing.number
        guard let (cut, played) = await speaker.cut(at: clock.now()), let number = cut.number else { return }
        emit(.interrupted(number: number, party: index + 1, playedSeconds: played))
    }
}
