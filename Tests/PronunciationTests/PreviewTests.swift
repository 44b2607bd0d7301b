import Foundation
import ParleyCore
import ParleyCoreFakes
import Testing
@testable import Pronunciation

@Suite("Preview")
struct PreviewTests {
    @Test("say speaks the word as espeak would, then the override's phonemes, all into the sink, then drains")
    func beforeAndAfter() async throws {
        let synthesizer = FakeSynthesizer(chunksPerUtterance: 1)
        let sink = FakeAudio()
        let voice = VoiceSelection.identifier("en-us")
        try await PronunciationPreview.play(word: "tomato", mnemonics: "t|@|'m|0|t|@|U", voice: voice,
                                            synthesizer: synthesizer, sink: sink)
        #expect(synthesizer.utterances.map(\.text) == ["tomato", "[[t|@|'m|0|t|@|U]]"])
        #expect(synthesizer.utterances.allSatisfy { $0.voice == voice })
        #expect(sink.playedChunks.map { $0.samples.first } == [1, 2])
        #expect(sink.drainCount == 1)
    }

    @Test("without an override only espeak's own pronunciation is spoken")
    func noOverride() async throws {
        let synthesizer = FakeSynthesizer(chunksPerUtterance: 1)
        try await PronunciationPreview.play(word: "potato", mnemonics: nil, voice: .identifier("en-us"),
                                            synthesizer: synthesizer, sink: FakeAudio())
        #expect(synthesizer.utterances.map(\.text) == ["potato"])
    }
}
