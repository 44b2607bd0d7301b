import Audio
import Foundation
import Logging
import ParleyCore
import Testing
import TestSupport

/// PulseAudio from Swift, through the private test server: a tone played into
/// `parley_mic` comes back from `parley_mic.monitor`.
@Suite(.serialized) struct PulseAudioToneTests {
    @Test func aToneIntoTheMicrophoneSinkIsHeardOnItsMonitor() async throws {
        let options = AudioSessionOptions(server: try TestAudioServer.address, source: TestAudioServer.microphoneSource,
                                          sink: TestAudioServer.microphoneSink, gatesCaptureDuringPlayback: false)
        let session = AudioSession(options: options, logger: Logger(label: "test"))
        try await session.open()
        try await session.startListening()
        let format = AudioFormat.synthesis
        let tone = (0..<format.sampleRate).map { Int16(12_000 * sin(2 * Double.pi * 440 * Double($0) / Double(format.sampleRate))) }
        for start in stride(from: 0, to: tone.count, by: 1_024) {
            try await session.enqueue(PCMChunk(format: format, samples: Array(tone[start..<min(start + 1_024, tone.count)])))
        }
        try await session.drain()
        var heard: [Int16] = []
        for await chunk in session.capturedChunks {
            heard += chunk.samples
            if heard.count >= AudioFormat.recognition.sampleCount(forSeconds: 1.5) { break }
        }
        await session.close()
        let loud = heard.filter { abs(Int($0)) > 3_000 }
        #expect(loud.count > 8_000, "expected most of a second of tone, found \(loud.count) loud samples")
        #expect(AudioLevel(measuring: heard).peak > 0.25)
        let crossings = zip(heard, heard.dropFirst()).filter { $0 < 0 && $1 >= 0 }.count
        #expect((380...500).contains(crossings), "a 440 Hz tone crosses zero upward about 440 times a second, found \(crossings)")
    }
}
