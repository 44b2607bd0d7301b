import Foundation
import ProcessHarness

/// A simulated room on the test server between two of a test's devices (`RoomLoopback`),
/// unloaded when the room goes.
public final class EchoRoom: Sendable {
    private let loopback: RoomLoopback

    /// What is played into `speaker` reaches `microphone` `latency` ms late, `decibels` louder
    /// (negative: quieter) than it was played.
    public init(from speaker: LoopbackDevice, to microphone: LoopbackDevice, latency: Int, decibels: Double) throws {
        loopback = try RoomLoopback(from: speaker.monitor, to: microphone.sink, latency: latency, decibels: decibels,
                                    environment: TestAudioServer.environment())
    }

    deinit { loopback.unload() }
}
