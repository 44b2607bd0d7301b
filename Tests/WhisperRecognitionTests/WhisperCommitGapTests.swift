import Foundation
import ParleyCore
import PocketSphinxRecognition
import Testing
import TestSupport
@testable import WhisperRecognition
@testable import Recognition

/// Simultaneous interpretation's commits on the real model, in a window where Whisper often
/// writes a few words and stops, the word before aligned over the rest of the speech.
@Suite("Commits on the real model where Whisper stops early", .serialized)
struct WhisperCommitGapTests {
    /// Where the speech detector, set as a request sets it, heard speech in `samples`.
    static func timeline(of samples: [Int16]) throws -> SpeechTimeline {
        let detector = try SphinxSpeechDetector(postSpeechFrames: WhisperRecognizer.Tuning().hangoverMilliseconds(endpoint: 500) / 10)
        var timeline = SpeechTimeline()
        var offset = 0
        while offset < samples.count {
            let step = samples[offset..<min(offset + WhisperAudioStream.stepSamples, samples.count)]
            detector.process(step)
            timeline.append(step.count, speech: detector.inSpeech)
            offset = step.endIndex
        }
        return timeline
    }

    /// The words of `answer`, a decode of audio from `start` seconds on, on the utterance's axis.
    static func words(_ answer: WhisperTranscription, from start: Double) -> [RecognizedWord] {
        answer.heard ? answer.words.map {
            RecognizedWord(text: $0.text, start: $0.start + start, end: $0.end + start, confidence: $0.confidence)
        } : []
    }

    @Test("after a clause cut inside a sentence, every word said is committed once and in order, however the window's decodes stop")
    func windowAfterACut() async throws {
        let passage = LongSpeechPassages.all[0]
        let directory = try Fixtures.temporaryDirectory("parley-commit-gap")
        defer { try? FileManager.default.removeItem(at: directory) }
        let samples = try AudioFileReader.read(try LongSpeechPassages.build(passage, in: directory)).samples
        let speech = try Self.timeline(of: samples)
        let whisper = try WhisperWorkerTests.recognizer()
        defer { Task { await whisper.worker.shutdown() } }
        let options = RecognitionOptions(commitPolicy: .localAgreement)

        // The first passage's "how much there might be prudently in his power", as the model
        // aligns it, taken as a clause ended by a pause: the window starts after "power",
        // inside the sentence, with the clause as the prompt, and nothing of it committed.
        var committer = ClauseCommitter(policy: .localAgreement)
        let opening = [("how", 3.06, 3.42), ("much", 3.42, 3.98), ("there", 3.98, 4.28), ("might", 4.28, 4.48), ("be", 4.48, 4.70),
                       ("prudently", 4.70, 5.18), ("in", 5.18, 5.36), ("his", 5.36, 5.50), ("power", 5.50, 5.72)]
            .map { RecognizedWord(text: $0.0, start: $0.1, end: $0.2, confidence: 0.9) }
        for _ in 0..<2 {
            _ = committer.hypothesis(opening, heardUntil: 5.72 + ClauseCommitter.trailingPause + 0.05, silent: true, speech: speech)
        }
        try #require(committer.clauses.map(\.text) == ["how much there might be prudently in his power"])
        try #require(abs(committer.windowStart - 5.62) < 0.01 && committer.committed.count == 9)

        // A commit decode every 0.25 s of the passage after, each of the window with the prompt.
        let end = Double(samples.count) / 16_000
        for heard in stride(from: committer.windowStart + 1.5, to: end, by: 0.25) {
            let start = Int((committer.windowStart * 16_000).rounded())
            let answer = try await whisper.decodeCommitting(Array(samples[start..<Int(heard * 16_000)]), language: "en",
                                                            options: options, context: committer.prompt)
            _ = committer.hypothesis(Self.words(answer, from: Double(start) / 16_000), heardUntil: heard,
                                     silent: speech.speech(from: heard - 0.01, to: heard) == 0, speech: speech)
        }
        // The endpoint, as the request decodes it.
        var tail: [RecognizedWord] = []
        for _ in 0...CommitDecodes.gapRedecodes {
            let start = Int((committer.windowStart * 16_000).rounded())
            let answer = try await whisper.decode(Array(samples[start...]), language: "en", options: options, final: true,
                                                  context: committer.prompt)
            tail = Self.words(answer, from: Double(start) / 16_000)
            guard committer.commitBeforeGap(in: tail, speech: speech) else { break }
        }
        _ = committer.finish(tail: tail, heardUntil: end)

        let said = passage.reference.split(separator: " ").drop { $0 != "power" }.dropFirst().joined(separator: " ")
        // The same audio decoded whole, as a turn's final decode, on this machine: the model's own
        // reading (the transcript has "a more a amiable", which no reading writes twice).
        let whole = try await whisper.decode(Array(samples[Int((5.62 * 16_000).rounded())...]), language: "en",
                                             options: RecognitionOptions(), final: true,
                                             context: "how much there might be prudently in his power")
        let wholeErrors = SpokenWords.errors(whole.text, reference: said)
        let text = committer.clauses.dropFirst().map(\.text).joined(separator: " ")
        let starts = committer.committed.map(\.start)
        #expect(SpokenWords.errors(text, reference: said) <= wholeErrors + said.split(separator: " ").count / 10,
                "'\(text)' for '\(said)', whole: '\(whole.text)' (\(committer.gapCount) decodes left speech out, \(committer.stoppedEarlyCount) stopped early)")
        #expect(starts == starts.sorted(), "\(committer.committed)")
    }
}
