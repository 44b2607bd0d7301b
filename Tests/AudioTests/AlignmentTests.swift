import Foundation
import Testing
import TestSupport

/// The tests' own measure of "heard sample for sample", on a recording altered by hand.
@Suite struct AlignmentTests {
    static let recording = (try? Fixtures.rawSamples(Fixtures.recording("goforward.raw"))) ?? []

    @Test("a capture that lost 10 ms in the middle, or drifted in rate, is still the recording; one at another rate or of another recording is not")
    func glitchesAndFormats() throws {
        let recording = Self.recording
        try #require(recording.count > 32_000)
        let silence = [Int16](repeating: 0, count: 1_600)
        let middle = recording.count / 2
        let glitched = silence + Array(recording[..<middle]) + Array(recording[(middle + 160)...]) + silence
        let alignment = Alignment(of: recording, in: glitched)
        #expect(alignment.heardWhole(recording, in: glitched).holds, "\(alignment.heardWhole(recording, in: glitched).description)")

        // pipewire-pulse adjusting its rate by 0.05 %, with 30 ms lost in one piece on the way.
        let drifted = silence + Self.resampled(Array(recording[..<middle]) + Array(recording[(middle + 480)...]), by: 1.0005) + silence
        let afterDrift = Alignment(of: recording, in: drifted).heardWhole(recording, in: drifted)
        #expect(afterDrift.holds, "\(afterDrift.description)")

        let halfRate = silence + stride(from: 0, to: recording.count, by: 2).map { recording[$0] } + silence
        let atHalfRate = Alignment(of: recording, in: halfRate).heardWhole(recording, in: halfRate)
        #expect(!atHalfRate.holds, "\(atHalfRate.description)")
        let reversed = silence + recording.reversed() + silence
        let backwards = Alignment(of: recording, in: reversed).heardWhole(recording, in: reversed)
        #expect(!backwards.holds, "\(backwards.description)")
        let other = try Fixtures.rawSamples(Fixtures.recording("something.raw"))
        let another = silence + other + silence
        let notThis = Alignment(of: recording, in: another).heardWhole(recording, in: another)
        #expect(!notThis.holds, "\(notThis.description)")
        print("alignment of other captures: half rate \(atHalfRate.description); backwards \(backwards.description); another recording \(notThis.description)")
    }

    /// `samples` read `factor` times as fast, by linear interpolation.
    static func resampled(_ samples: [Int16], by factor: Double) -> [Int16] {
        let count = Int(Double(samples.count - 1) / factor)
        return (0..<count).map { index in
            let position = Double(index) * factor, base = Int(position), fraction = position - Double(base)
            let next = min(base + 1, samples.count - 1)
            return Int16((Double(samples[base]) * (1 - fraction) + Double(samples[next]) * fraction).rounded())
        }
    }
}
