import Testing
import ParleyCore
@testable import Synthesis

@Suite("One espeak thread for the whole process")
struct ConcurrencyTests {
    @Test("many tasks and two synthesizers at once: every request completes and none disturbs another")
    func concurrentRequests() async throws {
        let first = try makeSynthesizer(), second = try makeSynthesizer()
        let expectedEnglish = try await first.phonemes(of: "tomato", voice: "en-us", notation: .ipa, separator: nil)
        let expectedSpanish = try await first.phonemes(of: "perro", voice: "es", notation: .ipa, separator: nil)
        try await withThrowingTaskGroup(of: Bool.self) { group in
            for index in 0..<16 {
                let synthesizer = index.isMultiple(of: 2) ? first : second
                group.addTask {
                    switch index % 4 {
                    case 0:
                        return try await synthesizer.phonemes(of: "tomato", voice: "en-us", notation: .ipa, separator: nil) == expectedEnglish
                    case 1:
                        return try await synthesizer.phonemes(of: "perro", voice: "es", notation: .ipa, separator: nil) == expectedSpanish
                    case 2:
                        let spoken = try await collect(synthesizer, Utterance(text: "¿Dónde está la estación?", voice: .locale(LocaleTag("es")!)))
                        return spoken.events.last == .finished && spoken.words.count == 4
                    default:
                        let spoken = try await collect(synthesizer, Utterance(text: "Where is the station?", voice: .identifier("en-us"), rate: 0.7))
                        return spoken.events.last == .finished && spoken.words.count == 4
                    }
                }
            }
            for try await ok in group { #expect(ok) }
        }
    }

    @Test("empty text starts and finishes without audio")
    func emptyText() async throws {
        let spoken = try await collect(try makeSynthesizer(), Utterance(text: "", voice: .identifier("en-us")))
        #expect(spoken.events.count == 2)
        #expect(spoken.events.last == .finished)
        #expect(spoken.samples.isEmpty)
    }
}
