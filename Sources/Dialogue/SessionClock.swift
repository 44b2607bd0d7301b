import Foundation

/// Seconds since the conversation started: the time base of the transcript.
public struct SessionClock: Sendable {
    private let reading: @Sendable () -> Double

    /// A clock that reads `reading` for the current time in seconds.
    public init(_ reading: @escaping @Sendable () -> Double) {
        self.reading = reading
    }

    /// Seconds since the session started.
    public func now() -> Double { reading() }

    /// The real clock, starting at zero now.
    public static func startingNow() -> SessionClock {
        let start = ContinuousClock.now
        return SessionClock {
            let elapsed = ContinuousClock.now - start
            return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        }
    }
}
