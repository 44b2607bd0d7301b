import Foundation
import Testing
import TestSupport

/// The tests' own measure of "heard sample for sample", on a recording altered by hand.
@Suite struct AlignmentTests {
    static let recording = (try? Fixtures.rawSamples(Fixtures.recording("goforward.raw"))) ?? []

    @Test("a capture that lost 10 ms in the middle is still the recording; one at another rate or of another recording is not")
    func glitchesAndFormats() throws {
        let recording = Self.recording
        try #require(recording.count > 32_000)
        let silence = [Int16](repeating: 0, count: 1_600)
        let middle = recording.count / 2
        let glitched = silence + Array(recording[..<middle]) + Array(recording[(middle + 160)...]) + silence
        let alignment = Alignment(of: recording, in: glitched)
        #expect(alignment.heardWhole(recording, in: glitched).holds, "\(alignment.heardWhole(recording, in: glitched).description)")

        let halfRate = silence + stride(from: 0, to: recording.count, by: 2).map { recording[$0] } + silence
        let atHalfRate = Alignment(of: recording, in: halfRate).heardWhole(recording, in: halfRate)
        #expect(!atHalfRate.holds, "\(atHalfRate.description)")
        let reversed = silence + recording.reversed() + silence
        let backwards = Alignment(of: recording, in: reversed).heardWhole(recording, in: reversed)
        #expect(!backwards.holds, "\(backwards.description)")
    }
}
