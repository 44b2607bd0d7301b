import ParleyCore

/// What the audio sessions report on their own: a server lost and back, a canceller that could
/// not be loaded again, another application's interruption.
extension TurnCoordinator {
    /// Something an audio session reported on its own: `owner` is the side whose own session
    /// it is (nil: both sides share it).
    func handle(_ event: AudioEvent, from owner: DialogueSide? = nil) async {
        let sides = owner.map { Set([$0]) } ?? Set(DialogueSide.allCases)
        switch event {
        case let .serverLost(message):
            microphone.lost(sides)
            emit(.error(owner.map { "side \($0)'s audio failed: \(message); side \($0) types and reads until it is back" }
                        ?? "audio failed: \(message); continuing with typed input until it is back"))
            // A side interpreted while it spoke: what was committed is its turn.
            if let side = interpreter.current?.side, sides.contains(side), await interpretationLostItsEnd(side: side) { return }
            if microphone.turn?.bargeIn != nil, sides.contains(microphone.turn?.side ?? .a) {
                // Nobody is heard over the translation any more; the turn being spoken ends as its speech does.
                if let request = detachBargeIn() { _ = await request.cancel() }
                if case let .held(side) = state {
                    setState(.speaking(side))
                    await speaker(for: side)?.resume()
                }
            } else if let side = state.side, isListening || microphone.turn != nil, sides.contains(microphone.turn?.side ?? side) {
                // A person already speaking when it went keeps what was heard: it is their turn,
                // as the key would have ended it (a room's party keeps theirs alike).
                if microphone.turn?.speechStart != nil { return await finishListening() }
                await leaveListening(for: .idle(side))
            }
        case .reconnected:
            microphone.back(sides)
            emit(.notice(owner.map { "side \($0)'s audio server is back" } ?? "the audio server is back"))
            if case let .idle(side) = state, sides.contains(side) { await resume(side) }
        case let .echoCancellationLost(reason):
            emit(.notice((owner.map { "side \($0): " } ?? "")
                         + "the echo canceller could not be loaded again (\(reason)); the microphone closes while Parley speaks"))
        case .interrupted:
            emit(.notice("another application interrupted the audio"))
        case .interruptionEnded:
            emit(.notice("the audio interruption ended"))
        case .captureOverrun:
            break
        }
    }
}
