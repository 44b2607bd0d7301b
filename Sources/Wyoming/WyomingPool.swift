import Foundation
import Synchronization

/// The Wyoming servers of one recognizer, and which of them takes the next utterance.
///
/// An utterance goes to the server with the fewest utterances in flight, the one used longest
/// ago among equals: the parties of a room are spread evenly, and each server decodes one at a
/// time where it can. A server that fails an utterance (refused, gone, silent past its bound,
/// not speaking Wyoming) is left out for `retrySeconds`; after that it is tried again, and used
/// as before once it answers.
final class WyomingPool: Sendable {
    struct Server {
        let address: WyomingAddress
        var inFlight = 0
        /// Until when it is left out, after a failure; nil while it is up.
        var downUntil: Date?
        /// Whether its last utterance failed (it is named again when it answers).
        var failing = false
        /// When it was last given an utterance, as a count.
        var lastUse = 0
    }

    /// How long a server that failed is left out.
    static let retrySeconds = 10.0

    let addresses: [WyomingAddress]
    private let state: Mutex<(servers: [Server], uses: Int)>
    /// Told one line for each server that fails, and for each that answers again.
    let notice: @Sendable (String) -> Void

    init(_ addresses: [WyomingAddress], notice: @escaping @Sendable (String) -> Void) {
        self.addresses = addresses
        state = Mutex((addresses.map { Server(address: $0) }, 0))
        self.notice = notice
    }

    /// The server for the next attempt of an utterance that `tried` already failed on: an up
    /// one if there is any, else (`anyUntried`) one that is left out but not tried by it; nil when none.
    func lease(excluding tried: Set<WyomingAddress>, now: Date = Date()) -> WyomingAddress? {
        state.withLock { state in
            let untried = state.servers.indices.filter { !tried.contains(state.servers[$0].address) }
            let up = untried.filter { state.servers[$0].downUntil.map { $0 <= now } ?? true }
            let candidates = up.isEmpty ? untried : up
            guard let chosen = candidates.min(by: {
                (state.servers[$0].inFlight, state.servers[$0].lastUse) < (state.servers[$1].inFlight, state.servers[$1].lastUse)
            }) else { return nil }
            state.uses += 1
            state.servers[chosen].inFlight += 1
            state.servers[chosen].lastUse = state.uses
            return state.servers[chosen].address
        }
    }

    /// An attempt on `address` ended (answered or failed).
    func release(_ address: WyomingAddress) {
        state.withLock { state in
            if let index = state.servers.firstIndex(where: { $0.address == address }) {
                state.servers[index].inFlight = max(0, state.servers[index].inFlight - 1)
            }
        }
    }

    /// `address` failed an utterance: it is left out for a while. True when it was up until now
    /// (the failure is news, to be said once).
    @discardableResult
    func failed(_ address: WyomingAddress, now: Date = Date()) -> Bool {
        state.withLock { state in
            guard let index = state.servers.firstIndex(where: { $0.address == address }) else { return false }
            let news = !state.servers[index].failing
            state.servers[index].failing = true
            state.servers[index].downUntil = now.addingTimeInterval(Self.retrySeconds)
            return news
        }
    }

    /// `address` answered an utterance; one that had failed is said to answer again.
    func answered(_ address: WyomingAddress) {
        let back = state.withLock { state -> Bool in
            guard let index = state.servers.firstIndex(where: { $0.address == address }) else { return false }
            defer {
                state.servers[index].failing = false
                state.servers[index].downUntil = nil
            }
            return state.servers[index].failing
        }
        if back { notice("the Wyoming server \(address) answers again; it takes utterances again") }
    }

    /// How many utterances each server has in flight, in `addresses`' order.
    var inFlight: [Int] { state.withLock { $0.servers.map(\.inFlight) } }
}
