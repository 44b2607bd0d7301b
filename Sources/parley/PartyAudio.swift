import Audio
import Logging
import ParleyCore

/// One party's microphone and speaker, as a conversation opens them: a dialogue's one shared
/// session or a side's own, or a room's party.
struct PartyAudio {
    /// Who they are in a sentence: `side A`, `party 2`.
    var name: String
    /// Their session's logger: `parley.audio.sidea`, `parley.audio.party2`.
    var logLabel: String
    /// Their devices, server and cookie, and how the session treats echo.
    var options: AudioSessionOptions
}

/// One party's session, opened, or why it is not.
struct OpenedAudio: Sendable {
    var session: AudioSession?
    /// The echo canceller the server refused; the session opened without one.
    var cancellerRefused: EchoCancellerUnavailable?
    /// Why no session opened.
    var failure: (any Error)?

    /// Whether the session records and plays through an echo canceller.
    var cancelsEcho: Bool { session?.cancelsEcho ?? false }

    /// The party could not be reached: the conversation does not start, in one sentence.
    func unreachable(_ party: PartyAudio) -> PartyUnreachable? {
        guard let failure else { return nil }
        let reason = (failure as? AudioServerUnavailable).map { "\($0.reason); start that server, or check its address and cookie" }
        return PartyUnreachable(name: party.name, server: party.options.server, reason: reason ?? "\(failure)")
    }
}

/// A party's audio server could not be reached, or their devices opened, when the conversation opened.
struct PartyUnreachable: Error, CustomStringConvertible {
    var name: String
    var server: String?
    var reason: String
    var description: String { "\(name) cannot be reached on \(server ?? "the default server"): \(reason)" }
}

/// Opens each party's audio session, in order, and stops at the first that fails.
///
/// The parties on one server share one `AudioConnection`: one context per server, as
/// `ServerAddress` resolves its address (`tcp:localhost` and `127.0.0.1:4713` are one server),
/// and per cookie shown to it (a connection authenticates once, with one cookie). A party alone
/// on their server gets a session with a connection of its own.
///
/// A session whose server refuses its echo canceller opens again without one (`cancellerRefused`).
func openSessions(_ parties: [PartyAudio]) async -> [OpenedAudio] {
    let keys = parties.map { ServerKey(address: ServerAddress($0.options.server), cookie: $0.options.cookie) }
    var connections: [ServerKey: AudioConnection] = [:]
    for (key, party) in zip(keys, parties) where connections[key] == nil && keys.filter({ $0 == key }).count > 1 {
        connections[key] = AudioConnection(server: party.options.server, cookie: party.options.cookie,
                                           applicationName: party.options.applicationName)
    }
    var opened: [OpenedAudio] = []
    for (key, party) in zip(keys, parties) {
        opened.append(await openSession(party, connection: connections[key]))
        if opened.last?.failure != nil { break }
    }
    return opened
}

/// A server as a connection reaches it: its address in one form, and the cookie shown to it.
private struct ServerKey: Hashable {
    var address: ServerAddress
    var cookie: PulseCookie?
}

/// Opens `party`'s session on `connection` (nil: one of its own).
private func openSession(_ party: PartyAudio, connection: AudioConnection?) async -> OpenedAudio {
    var options = party.options
    var session = AudioSession(options: options, connection: connection, logger: Logger(label: party.logLabel))
    var refused: EchoCancellerUnavailable?
    do {
        do {
            try await session.open()
        } catch let unavailable as EchoCancellerUnavailable {
            refused = unavailable
            options.echoCancellation = nil
            // The new session joins the connection before the refused one leaves it.
            let refusedSession = session
            session = AudioSession(options: options, connection: connection, logger: Logger(label: party.logLabel))
            await refusedSession.close()
            try await session.open()
        }
        return OpenedAudio(session: session, cancellerRefused: refused)
    } catch {
        await session.close()
        return OpenedAudio(cancellerRefused: refused, failure: error)
    }
}
