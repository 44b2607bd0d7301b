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
        guard let request = parties[index].request else { return }
        parties[index].request = nil
        parties[index].epoch += 1
        guard parties[index].speechStart != nil else { return _ = await request.cancel() }
        do {
            await recognized(try await request.finish(), party: index)
        } catch {
            await recognitionFailed(error, party: index)
        }
    }
}
