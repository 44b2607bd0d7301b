import Foundation
import ParleyCore
import ParleyCoreFakes
import Testing
@testable import PocketSphinxRecognition
@testable import Recognition
import RecognitionTestSupport
import TestSupport

extension RecognitionEngineTests {
    @Test("events come in order: speech start, partial results, speech end, then the final result")
    func partialResultsBeforeFinal() async throws {
        // The clip ends right after the last word: a second of silence lets the endpoint come.
        var audio = try AudioFileReader.read(
            Fixtures.recording("librivox/sense_and_sensibility_01_austen_64kb-0880.wav"))
        audio.samples += [Int16](repeating: 0, count: 16_000)
        var events: [RecognitionEvent] = []
        let results = try await Self.recognizer.transcribe(audio, locale: Reference.english) { events.append($0) }
        let kinds = events.map(Self.kind)
        let firstPartial = try #require(kinds.firstIndex(of: "partial"))
        let final = try #require(kinds.firstIndex(of: "final"))
        #expect(kinds.first == "start")
        #expect(firstPartial < final)
        #expect(kinds[final - 1] == "end")
        #expect(kinds.filter { $0 == "partial" }.count >= 2)
        #expect(results.count == 1)
    }

    @Test("the final result has a confidence, distinct alternatives and word times within the utterance")
    func finalResultDetails() async throws {
        let path = Fixtures.recording("librivox/sense_and_sensibility_01_austen_64kb-0870.wav")
        let result = try #require(try await Self.recognizer.transcribeFile(path, locale: Reference.english).first)
        #expect(result.isFinal)
        #expect(result.confidence > 0 && result.confidence <= 1)
        #expect(result.words.map(\.text).joined(separator: " ") == result.text)
        #expect(!result.alternatives.isEmpty)
        #expect(!result.alternatives.contains(result.text))
        #expect(Set(result.alternatives).count == result.alternatives.count)
        #expect(!(result.alternatives + result.words.map(\.text)).contains { $0.contains("(") })
        for (word, next) in zip(result.words, result.words.dropFirst()) {
            #expect(word.start < word.end && word.end <= next.start)
        }
        // The clip is 7.1 s long; times count from the utterance start, not the stream start.
        #expect(result.words.first!.start < 1 && result.words.last!.end <= 7.1)
    }

    @Test("word times agree with pocketsphinx_continuous -time within 30 ms, counted from each utterance's start")
    func wordTimesMatchContinuous() async throws {
        let directory = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let joined = directory.appendingPathComponent("two.raw").path
        try (Data(contentsOf: URL(fileURLWithPath: Fixtures.recording("goforward.raw")))
            + Data(contentsOf: URL(fileURLWithPath: Fixtures.recording("something.raw"))))
            .write(to: URL(fileURLWithPath: joined))
        let output = try ProcessRunner.run(["pocketsphinx_continuous", "-infile", joined, "-logfn", "/dev/null",
                                            "-time", "yes"] + Reference.defaultConfiguration().tuning)
        let expected = Self.utteranceWordStarts(continuousTimes: output.stdout)
        let recognizer = PocketSphinxRecognizer(models: PocketSphinxModelRegistry(userDirectory: nil))
        let results = try await recognizer.transcribeFile(joined, locale: Reference.english)
        #expect(expected.count == 2)
        let actual = results.map { $0.words.map { ($0.text, Int(($0.start * 100).rounded())) } }
        #expect(actual.map { $0.map(\.0) } == expected.map { $0.map(\.0) })
        // Where the stream is cut between utterances can differ by a frame or two (the tool reads
        // 2048-sample blocks, Parley 10 ms steps), so starts may shift by up to 3 frames.
        for (ours, theirs) in zip(actual.joined(), expected.joined()) {
            #expect(abs(ours.1 - theirs.1) <= 3, "\(ours.0): \(ours.1) vs \(theirs.1)")
        }
    }

    /// (word, start frame) per utterance from `-time yes` output, frames counted from the utterance's `<s>`.
    static func utteranceWordStarts(continuousTimes: String) -> [[(String, Int)]] {
        var utterances: [[(String, Int)]] = []
        var origin = 0
        for line in continuousTimes.split(separator: "\n") {
            let fields = line.split(separator: " ")
            guard fields.count == 4, let start = Double(fields[1]) else { continue }
            let frame = Int((start * 100).rounded())
            let word = ResultAssembly.baseWord(String(fields[0]))
            if word == "<s>" {
                origin = frame
                utterances.append([])
            } else if !ResultAssembly.isFiller(word) {
                utterances[utterances.count - 1].append((word, frame - origin))
            }
        }
        return utterances
    }

    @Test("finish returns the final result of what was heard; cancel returns the hypothesis so far")
    func finishVersusCancel() async throws {
        let samples = try AudioFileReader.read(
            Fixtures.recording("librivox/sense_and_sensibility_01_austen_64kb-0870.wav")).samples
        let firstHalf = PCMChunk(format: .recognition, samples: Array(samples.prefix(samples.count / 2)))

        let cancelled = try await Self.recognizer.makeRequest(locale: Reference.english, options: .init(), newStream: true)
        let partials = try await cancelled.append(firstHalf).compactMap(Self.partialText)
        let stopped = await cancelled.cancel()
        #expect(!stopped.isFinal)
        #expect(stopped.text == partials.last)

        let finished = try await Self.recognizer.makeRequest(locale: Reference.english, options: .init(), newStream: true)
        _ = try await finished.append(firstHalf)
        let result = try await finished.finish()
        #expect(result.isFinal)
        #expect(result.text.split(separator: " ").count >= 5)
        #expect(!result.words.isEmpty)
    }

    @Test("a live source is recognized utterance by utterance, with partial results first")
    func liveSource() async throws {
        let audio = try AudioFileReader.read(Fixtures.recording("goforward.raw"))
        let source = RecordingSource(audio)
        var kinds: [String] = []
        var finals: [String] = []
        try await Self.recognizer.recognizeLive(from: source, locale: Reference.english) { event in
            kinds.append(Self.kind(event))
            if case let .final(result) = event { finals.append(result.text) }
            return true
        }
        #expect(finals == ["go forward ten meters"])
        let firstPartial = try #require(kinds.firstIndex(of: "partial"))
        #expect(firstPartial < kinds.firstIndex(of: "final")!)
        #expect(source.gateEvents == ["open", "close"])
    }

    static func kind(_ event: RecognitionEvent) -> String {
        switch event {
        case .speechStarted: "start"
        case .partial: "partial"
        case .clause: "clause"
        case .speechEnded: "end"
        case .final: "final"
        }
    }

    static func partialText(_ event: RecognitionEvent) -> String? {
        if case let .partial(text) = event { return text }
        return nil
    }
}
