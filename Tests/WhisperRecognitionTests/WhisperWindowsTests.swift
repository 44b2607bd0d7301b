import Testing
@testable import WhisperRecognition

/// Long utterances cut into encoder windows, their answers joined, and the reading said twice
/// that goes to the full window: pure logic, no model.
struct WhisperWindowsTests {
    /// `seconds` of a loud square wave with quiet stretches at `pauses` (start, length in s).
    static func speech(seconds: Double, pauses: [(Double, Double)]) -> [Int16] {
        var samples = (0..<Int(seconds * 16_000)).map { $0 / 40 % 2 == 0 ? Int16(8_000) : Int16(-8_000) }
        for (start, length) in pauses {
            for index in Int(start * 16_000)..<Int((start + length) * 16_000) { samples[index] = Int16(index % 3) }
        }
        return samples
    }

    @Test("an utterance that fits in one window is one window")
    func oneWindow() {
        let audio = Self.speech(seconds: 27, pauses: [(10, 0.3)])
        #expect(WhisperWindows.ranges(of: audio) == [0..<audio.count])
    }

    @Test("a longer one is cut at the pause in each window's last 5 s, covering every sample once")
    func cutAtPauses() throws {
        let audio = Self.speech(seconds: 45.1, pauses: [(10, 0.3), (23.6, 0.25), (40, 0.25)])
        let ranges = WhisperWindows.ranges(of: audio)
        #expect(ranges.count == 2)
        let cut = try #require(ranges.first?.upperBound)
        #expect(cut > Int(23.6 * 16_000) && cut < Int(23.85 * 16_000), "cut at \(Double(cut) / 16_000) s")
        #expect(ranges.first?.lowerBound == 0 && ranges.last?.upperBound == audio.count)
        #expect(zip(ranges, ranges.dropFirst()).allSatisfy { $0.upperBound == $1.lowerBound })
        #expect(ranges.allSatisfy { $0.count <= WhisperWindows.maximumSamples })
    }

    @Test("speech with no pause at all is cut at the window's most")
    func noPause() {
        let audio = Self.speech(seconds: 60, pauses: [])
        let ranges = WhisperWindows.ranges(of: audio)
        #expect(ranges.count == 3 && ranges.allSatisfy { $0.count <= WhisperWindows.maximumSamples })
        #expect(ranges.last?.upperBound == audio.count)
    }

    @Test("windows' answers join: texts in order, word times moved, silence left out")
    func joined() {
        var first = WhisperTranscription(text: "He was not.", silent: false, confidence: 0.8)
        first.words = [.init(text: "He", start: 0.1, end: 0.3, confidence: 0.9)]
        var second = WhisperTranscription(text: "He might.", silent: false, confidence: 0.6)
        second.words = [.init(text: "He", start: 0.2, end: 0.4, confidence: 0.7)]
        let silent = WhisperTranscription(text: "", silent: true, confidence: 0.1)
        let answer = WhisperTranscription.joined([first, silent, second], offsets: [0, 20, 40])
        #expect(answer.text == "He was not. He might." && answer.silent == false)
        #expect(abs(answer.confidence - 0.7) < 1e-9)
        #expect(answer.words.map(\.start) == [0.1, 40.2])
        #expect(WhisperTranscription.joined([silent, silent], offsets: [0, 27]).silent == true)
    }

    @Test("audio read ahead of its pace (a file) is told from audio at the pace of speech (a capture)")
    func arrivalPace() {
        let start = ContinuousClock.now
        var file = ArrivalPace(), capture = ArrivalPace(), burst = ArrivalPace()
        for index in 0..<40 {
            file.arrived(2_048, at: start + .microseconds(200 * index))
            capture.arrived(1_024, at: start + .milliseconds(64 * index))
            burst.arrived(index == 20 ? 16_000 : 160, at: start + .milliseconds(10 * index))
        }
        #expect(!file.isRealTime && capture.isRealTime)
        #expect(!burst.isRealTime, "a second of audio at once")
        #expect(ArrivalPace().isRealTime, "nothing heard yet")
    }
}
