import Foundation
import ProcessHarness

/// A simulated room on the test server between two of a test's devices (`RoomLoopback`),
/// unloaded when the room goes.
public final class EchoRoom: Sendable {
    private let loopback: RoomLoopback

    /// What is played into `speaker` reaches `microphone` `latency` ms late, `decibels` louder
    /// (negative: quieter) than it was played.
    /// `keepsRate`: see `RoomLoopback`.
    public init(from speaker: LoopbackDevice, to microphone: LoopbackDevice, latency: Int, decibels: Double,
                keepsRate: Bool = false) throws {
        loopback = try RoomLoopback(from: speaker.monitor, to: microphone.sink, latency: latency, decibels: decibels,
                                    keepsRate: keepsRate,
                                    environment: TestAudioServer.environment())
    }

    deinit { loopback.unload() }
}
