import Foundation
import Testing
import ParleyCore
import Synchronization
import TestSupport
@testable import Synthesis

@Suite("Speaking into sinks: memory and WAV files")
struct SinkTests {
    @Test("speak(_:to:) enqueues every chunk as it comes and reports the other events")
    func memorySink() async throws {
        let synthesizer = try makeSynthesizer()
        let sink = MemoryAudioSink()
        let words = WordCounter()
        let utterance = Utterance(text: "One two three four.", voice: .identifier("en-us"))
        let completion = try await synthesizer.speak(utterance, to: sink, onEvent: { event in
            if case .word = event { words.increment() }
        })
        let direct = try await collect(synthesizer, utterance)
        #expect(completion == .finished)
        #expect(words.count == 4)
        #expect(sink.chunks.count > 1)
        // espeak carries some state from one text to the next (after "I like tomato soup."
        // the same words come out 1% longer, measured), and other suites share the engine.
        #expect(abs(sink.samples.count - direct.samples.count) < direct.samples.count / 10)
    }

    @Test("stopping the synthesizer cancels the sink's playback")
    func cancelReachesSink() async throws {
        let synthesizer = try makeSynthesizer()
        let sink = StoppingSink(synthesizer)
        let text = String(repeating: "A sentence that goes on and on. ", count: 30)
        let completion = try await synthesizer.speak(Utterance(text: text, voice: .identifier("en-us")), to: sink)
        #expect(completion == .cancelled)
        #expect(sink.memory.cancellations == 1)
        #expect(sink.memory.chunks.isEmpty)
    }

    @Test("the WAV sink writes through libsndfile a file sox reads back sample for sample")
    func wavFile() async throws {
        let directory = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("out.wav").path
        let sink = try WAVFileSink(path: path)
        let samples: [Int16] = (0..<22_050).map { Int16(8_000 * sin(Double($0) * 2 * .pi * 440 / 22_050)) }
        try await sink.enqueue(PCMChunk(format: .synthesis, samples: Array(samples[..<10_000])))
        try await sink.enqueue(PCMChunk(format: .synthesis, samples: Array(samples[10_000...])))
        try sink.finish()
        #expect(sink.framesWritten == 22_050)
        let raw = directory.appendingPathComponent("out.raw").path
        let converted = try ProcessRunner.run(["sox", path, "-t", "raw", "-e", "signed", "-b", "16", "-L", raw])
        #expect(converted.status == 0)
        #expect(try Fixtures.rawSamples(raw) == samples)
    }

    @Test("a WAV file that cannot be created is one sentence saying why")
    func unwritable() throws {
        let directory = try Fixtures.temporaryDirectory("parley-sink")
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("plain.txt").path
        try Data("x".utf8).write(to: URL(fileURLWithPath: file))
        let cases = [("/nonexistent-directory/out.wav", "the folder /nonexistent-directory does not exist"),
                     (directory.path, "it is a folder"),
                     (file + "/out.wav", "\(file) is not a folder")]
        for (path, reason) in cases {
            #expect {
                _ = try WAVFileSink(path: path)
            } throws: { error in
                String(describing: error) == "cannot write \(path): \(reason)"
            }
        }
        #expect(AudioFileError(path: "x.wav", reason: "System error : No space left on device.").description
                == "cannot write x.wav: no space left on device")
    }
}

/// Counts events from a `@Sendable` callback.
final class WordCounter: Sendable {
    private let value = Mutex(0)
    func increment() { value.withLock { $0 += 1 } }
    var count: Int { value.withLock { $0 } }
}

/// A memory sink that stops the synthesizer when the first chunk arrives, as a person pressing stop.
final class StoppingSink: AudioSink {
    let memory = MemoryAudioSink()
    private let synthesizer: ESpeakSynthesizer

    init(_ synthesizer: ESpeakSynthesizer) { self.synthesizer = synthesizer }

    func enqueue(_ chunk: PCMChunk) async throws {
        try await memory.enqueue(chunk)
        await synthesizer.stopSpeaking()
    }

    func drain() async throws {}
    func cancelPlayback() async { await memory.cancelPlayback() }
    func close() async {}
}
