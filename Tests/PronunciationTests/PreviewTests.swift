import Foundation
import ParleyCore
import Testing
@testable import Pronunciation

/// A synthesizer that records what it was asked to say and makes one chunk per utterance.
private final class RecordingSynthesizer: SpeechSynthesizer, @unchecked Sendable {
    private let lock = NSLock()
    private var spoken: [Utterance] = []
    var utterances: [Utterance] { lock.withLock { spoken } }

    func voices() async -> [Voice] { [] }

    func speak(_ utterance: Utterance) -> AsyncThrowingStream<SynthesisEvent, any Error> {
        let index = lock.withLock { spoken.append(utterance); return spoken.count }
        return AsyncThrowingStream { continuation in
            continuation.yield(.started(Voice(identifier: "en-us", name: "test", language: "en", locale: nil, gender: .male)))
            continuation.yield(.audio(PCMChunk(format: .synthesis, samples: [Int16](repeating: Int16(index), count: 10))))
            continuation.yield(.finished)
            continuation.finish()
        }
    }

    func stopSpeaking() async {}
}

/// A sink that keeps what it was given.
private final class RecordingSink: AudioSink, @unchecked Sendable {
    private let lock = NSLock()
    private var chunks: [PCMChunk] = []
    private var drains = 0
    var played: [PCMChunk] { lock.withLock { chunks } }
    var drained: Int { lock.withLock { drains } }

    func enqueue(_ chunk: PCMChunk) async throws { lock.withLock { chunks.append(chunk) } }
    func drain() async throws { lock.withLock { drains += 1 } }
    func cancelPlayback() async {}
    func close() async {}
}

@Suite("Preview")
struct PreviewTests {
    @Test("say speaks the word as espeak would, then the override's phonemes, all into the sink, then drains")
    func beforeAndAfter() async throws {
        let synthesizer = RecordingSynthesizer()
        let sink = RecordingSink()
        let voice = VoiceSelection.identifier("en-us")
        try await PronunciationPreview.play(word: "tomato", mnemonics: "t|@|'m|0|t|@|U", voice: voice,
                                            synthesizer: synthesizer, sink: sink)
        #expect(synthesizer.utterances.map(\.text) == ["tomato", "[[t|@|'m|0|t|@|U]]"])
        #expect(synthesizer.utterances.allSatisfy { $0.voice == voice })
        #expect(sink.played.map { $0.samples.first } == [1, 2])
        #expect(sink.drained == 1)
    }

    @Test("without an override only espeak's own pronunciation is spoken")
    func noOverride() async throws {
        let synthesizer = RecordingSynthesizer()
        try await PronunciationPreview.play(word: "potato", mnemonics: nil, voice: .identifier("en-us"),
                                            synthesizer: synthesizer, sink: RecordingSink())
        #expect(synthesizer.utterances.map(\.text) == ["potato"])
    }
}
