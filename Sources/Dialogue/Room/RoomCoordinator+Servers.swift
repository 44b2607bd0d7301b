import ParleyCore

/// Servers: a party whose audio server is lost is away, and back when it returns.
extension RoomCoordinator {
    /// Follows party `index`'s audio session: away when its server is lost, back when it returns.
    func follow(_ events: AsyncStream<AudioEvent>, of index: Int) async {
        for await event in events {
            guard !stopped else { return }
            switch event {
            case let .serverLost(reason):
                guard !parties[index].away else { continue }
                parties[index].away = true
                emit(.away(party: index + 1, reason: reason))
                await keepWhatWasSaid(party: index)
            case .reconnected:
                guard parties[index].away else { continue }
                parties[index].away = false
                emit(.back(party: index + 1))
            default:
                continue
            }
        }
    }

    /// The server went while party `index` spoke: what was heard until then is their utterance.
    func keepWhatWasSaid(party index: Int) async {
        guard let turn = parties[index].listening.turn else { return }
        _ = parties[index].listening.detach()
        parties[index].epoch.advance()
        guard turn.speechStart != nil else { return _ = await turn.request.cancel() }
        do {
            await recognized(try await turn.request.finish(), party: index, turn: turn)
        } catch {
            await recognitionFailed(error, party: index, turn: turn)
        }
    }
}
