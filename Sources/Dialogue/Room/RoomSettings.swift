public import ParleyCore

/// How a room hears and speaks, set when it starts.
public struct RoomSettings: Sendable, Hashable {
    /// Trailing silence, in milliseconds, that ends an utterance (`--endpoint-ms`).
    public var endpointMilliseconds: Int
    /// Whether a party's speech is interpreted while they speak, clause by clause, to every
    /// listener at once (`--simultaneous`).
    public var simultaneous: Bool
    /// How words are committed while a party speaks, with `simultaneous`.
    public var commitPolicy: CommitPolicy
    /// Whether a listener who starts speaking over the translation they hear holds it, and stops
    /// it when their words are more than a backchannel (`--barge-in`).
    public var bargeIn: Bool
    /// The voice each party hears translations in, by party (from 0); nil, or none listed, for
    /// the default voice of their locale.
    public var voices: [String?] = []

    /// Settings; the defaults are those of `parley room` with no options.
    public init(endpointMilliseconds: Int = 500, simultaneous: Bool = false,
                commitPolicy: CommitPolicy = .localAgreement, bargeIn: Bool = true) {
        self.endpointMilliseconds = endpointMilliseconds
        self.simultaneous = simultaneous
        self.commitPolicy = commitPolicy
        self.bargeIn = bargeIn
    }
}
