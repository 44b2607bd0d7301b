import Locales
import ParleyCore
@testable import WhisperRecognition
@testable import Recognition
import TestSupport
import Testing

/// Where Whisper's live utterances start, on the real detector, worker and model.
@Suite("Whisper endpointing", .serialized)
struct WhisperEndpointingTests {
    /// A quiet noise floor, well below speech, as a microphone delivers between words.
    private func quiet(seconds: Double) -> [Int16] {
        (0..<Int(seconds * 16_000)).map { _ in Int16.random(in: -40...40) }
    }

    /// The events of one request fed `audio` in 20 ms blocks, as capture delivers it, up to the final.
    private func events(of request: any RecognitionRequest, _ audio: [Int16]) async throws -> [RecognitionEvent] {
        var events: [RecognitionEvent] = []
        for start in stride(from: 0, to: audio.count, by: 320) where !events.contains(where: \.isFinal) {
            let block = Array(audio[start..<min(start + 320, audio.count)])
            events += try await request.append(PCMChunk(format: .recognition, samples: block))
        }
        return events
    }

    @Test("a turn that opens before the person speaks hears them from the first word, as one utterance")
    func speechAfterAPause() async throws {
        let whisper = try WhisperWorkerTests.recognizer()
        let english = LocaleTag("en-US")!
        let speech = try AudioFileReader.read(Fixtures.recording("librivox/sense_and_sensibility_01_austen_64kb-0930.wav")).samples
        let alone = try await whisper.transcribe(PCMChunk(format: .recognition, samples: speech), locale: english)
        // The previous turn's listening taught the detector the noise floor (a new detector takes
        // its first second of noise for speech); the dialogue cancels each request it ends.
        let earlier = try await whisper.makeRequest(locale: english, options: .init(), newStream: true)
        _ = try? await events(of: earlier, quiet(seconds: 2))
        _ = await earlier.cancel()

        let pause = 1.5  // three times the endpoint
        let request = try await whisper.makeRequest(locale: english, options: .init())
        let heard = try await events(of: request, quiet(seconds: pause) + speech + quiet(seconds: 1))
        // A key pressed as the speech ended gets the same turn, not `requestReused`.
        let again = try await request.finish()
        await whisper.worker.shutdown()

        let starts = heard.compactMap { event -> Double? in
            if case let .speechStarted(at) = event { return at }
            return nil
        }
        let finals = heard.compactMap { event -> String? in
            if case let .final(result) = event { return result.text }
            return nil
        }
        #expect(starts.count == 1 && starts.allSatisfy { $0 >= pause }, "speech started at \(starts) s")
        try #require(!alone.isEmpty, "the clip alone is recognized")
        #expect(finals == alone.map(\.text))
        #expect([again.text] == finals, "finish after the endpoint answers with its final")
    }
}
