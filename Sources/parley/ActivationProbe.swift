import Audio
import Foundation
import Logging
import ParleyCore

/// Measures how long listening takes to deliver audio on an open session, for `parley doctor`.
enum ActivationProbe {
    /// Opens a session, starts listening a few times on the same open streams, and
    /// describes the last activation latency (the first one includes the stream's start-up).
    static func measure(options: AudioSessionOptions, rounds: Int = 3) async throws -> String {
        let session = AudioSession(options: options, logger: Logger(label: "parley.doctor"))
        try await session.open()
        let watchdog = Task {
            try await Task.sleep(for: .seconds(5))
            await session.close()  // ends the capture stream if the source never delivers
        }
        defer { watchdog.cancel() }
        var chunks = session.capturedChunks.makeAsyncIterator()
        for _ in 0..<rounds {
            try await session.startListening()
            guard await chunks.next() != nil else { return "not measured: the source delivered no audio" }
            await session.stopListening()
        }
        let latency = session.metrics.activationLatency
        await session.close()
        return latency.map { String(format: "%.1f ms", milliseconds($0)) } ?? "not measured"
    }

    private static func milliseconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) * 1000 + Double(duration.components.attoseconds) / 1e15
    }
}
