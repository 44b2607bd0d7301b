import Testing
import ParleyCore
@testable import Synthesis

@Suite("Events: words, streaming, cancellation")
struct EventTests {
    @Test("word events cover exactly the words of a Spanish question, in the Swift string")
    func spanishWords() async throws {
        let synthesizer = try makeSynthesizer()
        let text = "¿Cómo estás, señor Núñez?"
        let spoken = try await collect(synthesizer, Utterance(text: text, voice: .locale(LocaleTag("es")!)))
        #expect(spoken.words.map { String(text[$0]) } == ["Cómo", "estás", "señor", "Núñez"])
        guard case .started = spoken.events.first else { Issue.record("no .started first"); return }
        #expect(spoken.events.last == .finished)
    }

    @Test("events come in order: started, then words and audio, then finished")
    func order() async throws {
        let synthesizer = try makeSynthesizer()
        let spoken = try await collect(synthesizer, Utterance(text: "One. Two. Three.", voice: .identifier("en-us")))
        let kinds = spoken.events.map { event -> String in
            switch event {
            case .started: "started"
            case .word: "word"
            case .audio: "audio"
            case .finished: "finished"
            case .cancelled: "cancelled"
            }
        }
        #expect(kinds.first == "started" && kinds.last == "finished")
        #expect(kinds.filter { $0 == "word" }.count == 3)
        // Streamed: audio of the first sentence comes before the last word is announced.
        #expect(kinds.firstIndex(of: "audio")! < kinds.lastIndex(of: "word")!)
        #expect(spoken.events.allSatisfy { event in
            guard case let .audio(chunk) = event else { return true }
            return chunk.format == .synthesis && chunk.duration <= 0.06
        })
    }

    @Test("long text is split at sentence boundaries, keeping positions")
    func sentenceSplitting() {
        let text = "Hello there. How are you?\nFine, thanks! Version 2.5 is out…  Really."
        let ranges = SpokenTextBuilder.sentenceRanges(in: Array(text.unicodeScalars))
        let scalars = Array(text.unicodeScalars)
        let sentences = ranges.map { String(String.UnicodeScalarView(scalars[$0])).trimmingCharacters(in: .whitespacesAndNewlines) }
        #expect(sentences == ["Hello there.", "How are you?", "Fine, thanks!", "Version 2.5 is out…", "Really."])
    }

    @Test("word ranges stay right across sentences")
    func wordsAcrossSentences() async throws {
        let synthesizer = try makeSynthesizer()
        let text = "Good morning. Café au lait, please!"
        let spoken = try await collect(synthesizer, Utterance(text: text, voice: .identifier("en-us")))
        #expect(spoken.words.map { String(text[$0]) } == ["Good", "morning", "Café", "au", "lait", "please"])
    }

    @Test("stopping mid-utterance ends within one chunk, and the next utterance is complete")
    func cancel() async throws {
        let synthesizer = try makeSynthesizer()
        let text = String(repeating: "This sentence is long enough to keep the synthesizer busy for a while. ", count: 20)
        let utterance = Utterance(text: text, voice: .identifier("en-us"))
        let reference = try await collect(synthesizer, Utterance(text: "The next one.", voice: .identifier("en-us")))

        var chunksAfterStop = 0, stopped = false, samples = 0
        var last: SynthesisEvent?
        for try await event in synthesizer.speak(utterance) {
            last = event
            guard case let .audio(chunk) = event else { continue }
            samples += chunk.samples.count
            if stopped { chunksAfterStop += 1 } else {
                stopped = true
                await synthesizer.stopSpeaking()
            }
        }
        #expect(last == .cancelled)
        #expect(chunksAfterStop <= 1)
        #expect(samples < AudioFormat.synthesis.sampleCount(forSeconds: 1))

        let next = try await collect(synthesizer, Utterance(text: "The next one.", voice: .identifier("en-us")))
        #expect(next.events.last == .finished)
        let nextText = "The next one."
        #expect(next.words.map { String(nextText[$0]) } == ["The", "next", "one"])
        // espeak's length for the same text varies a few percent with its earlier state
        // (other suites share the engine); a leftover or a cut would be far more.
        #expect(abs(next.duration - reference.duration) < 0.15 * reference.duration)
    }

    @Test("a reader that stops reading stops the synthesis")
    func readerCancels() async throws {
        let synthesizer = try makeSynthesizer()
        let text = String(repeating: "Another long sentence to say. ", count: 50)
        let task = Task {
            var count = 0
            for try await event in synthesizer.speak(Utterance(text: text, voice: .identifier("en-us"))) {
                if case .audio = event { count += 1 }
                if count == 2 { withUnsafeCurrentTask { $0?.cancel() } }
            }
            return count
        }
        let count = try await task.value
        #expect(count <= 3)
    }
}

import Foundation
