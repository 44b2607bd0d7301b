public import ParleyCore
import Synchronization

/// A test microphone: plays a recording as 20 ms chunks at real-time pace once
/// the gate opens, then ends its stream. Records gate openings and closings.
public final class RecordingSource: AudioSource {
    public let captureFormat = AudioFormat.recognition
    public let capturedChunks: AsyncStream<PCMChunk>
    private let continuation: AsyncStream<PCMChunk>.Continuation
    private let audio: PCMChunk
    private let gate = Mutex<[String]>([])

    /// Gate changes so far: "open" and "close".
    public var gateEvents: [String] { gate.withLock { $0 } }

    public init(_ audio: PCMChunk) {
        self.audio = audio
        (capturedChunks, continuation) = AsyncStream.makeStream(of: PCMChunk.self)
    }

    public func startListening() async throws {
        gate.withLock { $0.append("open") }
        let audio = audio, continuation = continuation
        Task {
            let step = audio.format.sampleCount(forSeconds: 0.02)
            for start in stride(from: 0, to: audio.samples.count, by: step) {
                let end = min(start + step, audio.samples.count)
                continuation.yield(PCMChunk(format: audio.format, samples: Array(audio.samples[start..<end])))
                try? await Task.sleep(for: .milliseconds(20))
            }
            continuation.finish()
        }
    }

    public func stopListening() async {
        gate.withLock { $0.append("close") }
    }
}
