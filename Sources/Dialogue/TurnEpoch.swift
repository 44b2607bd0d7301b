/// Which activity of the coordinator is current: listening, a turn, an aside.
///
/// Every activity takes a token when it begins, and checks it after each
/// suspension: when something else has begun meanwhile (a cancel, a swap, the
/// next turn), the token is no longer current and the late result is dropped.
///
/// ```swift
/// let token = epoch.advance()
/// let result = try await request.finish()
/// guard epoch.isCurrent(token) else { return }
/// ```
struct TurnEpoch {
    /// One activity's claim.
    struct Token: Equatable, Sendable {
        fileprivate let number: Int
    }

    private var number = 0

    /// The current activity's token, for a caller that continues it.
    var current: Token { Token(number: number) }

    /// Abandons the current activity; returns the token of the one that begins.
    @discardableResult
    mutating func advance() -> Token {
        number += 1
        return current
    }

    /// Whether `token` still belongs to the current activity.
    func isCurrent(_ token: Token) -> Bool { token.number == number }
}
