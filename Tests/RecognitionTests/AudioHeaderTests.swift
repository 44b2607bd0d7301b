import Foundation
import ParleyCore
import Testing
@testable import Recognition
import RecognitionTestSupport
import TestSupport

/// WAV files whose headers lie: they are refused, with one sentence, before any audio is held.
@Suite struct AudioHeaderTests {
    /// A 16-bit PCM WAV file with the header fields given and `dataBytes` bytes of silence.
    static func wav(rate: UInt32, channels: UInt16, dataBytes: Int) throws -> String {
        var bytes = Data("RIFF".utf8)
        func append<T: FixedWidthInteger>(_ value: T) { withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) } }
        append(UInt32(36 + dataBytes))
        bytes += Data("WAVEfmt ".utf8)
        append(UInt32(16)); append(UInt16(1)); append(channels); append(rate)
        append(rate * UInt32(channels) * 2); append(channels * 2); append(UInt16(16))
        bytes += Data("data".utf8)
        append(UInt32(dataBytes))
        bytes += Data(count: dataBytes)
        let path = try Fixtures.temporaryDirectory("parley-header").appendingPathComponent("lying.wav").path
        try bytes.write(to: URL(fileURLWithPath: path))
        return path
    }

    /// Removes a file `wav` wrote, with its folder.
    static func remove(_ path: String) {
        try? FileManager.default.removeItem(atPath: (path as NSString).deletingLastPathComponent)
    }

    static func refusal(_ path: String) -> String? {
        do {
            _ = try AudioFileReader.read(path)
            return nil
        } catch {
            return String(describing: error)
        }
    }

    @Test("a header claiming 1 Hz is refused before any conversion")
    func oneHertz() throws {
        let path = try Self.wav(rate: 1, channels: 1, dataBytes: 2_000)
        defer { Self.remove(path) }
        #expect(Self.refusal(path) == "cannot read audio from \(path): its header claims a sample rate of 1 Hz; "
            + "Parley reads 4000 to 384000 Hz")
    }

    @Test("a header claiming an absurd rate or channel count is refused")
    func absurdHeaders() throws {
        let fast = try Self.wav(rate: 4_000_000, channels: 1, dataBytes: 2_000)
        defer { Self.remove(fast) }
        #expect(Self.refusal(fast)?.contains("its header claims a sample rate of 4000000 Hz") == true)
        let wide = try Self.wav(rate: 16_000, channels: 200, dataBytes: 4_000)
        defer { Self.remove(wide) }
        #expect(Self.refusal(wide) == "cannot read audio from \(wide): its header claims 200 channels; Parley reads 1 to 32")
    }

    @Test("the stream gives capture-sized chunks of 16 kHz mono, the same samples as reading the whole file")
    func streamMatchesWholeFile() throws {
        let directory = try Fixtures.temporaryDirectory("parley-stream")
        defer { try? FileManager.default.removeItem(at: directory) }
        let original = try Fixtures.rawSamples(Fixtures.recording("goforward.raw")).count
        for (rate, channels) in [(16_000, 1), (44_100, 2), (8_000, 1)] {
            let path = try Reference.convert(Fixtures.recording("goforward.raw"), rate: rate, channels: channels, into: directory)
            let whole = try AudioFileReader.read(path).samples
            let stream = try AudioFileStream(path: path)
            var streamed: [Int16] = [], sizes: [Int] = []
            while let chunk = try stream.next(samples: 2048) {
                streamed += chunk.samples
                sizes.append(chunk.samples.count)
            }
            #expect(streamed == whole, "\(rate) Hz, \(channels) channel(s)")
            #expect(sizes.dropLast().allSatisfy { $0 == 2048 } && (sizes.last ?? 0) <= 2048)
            #expect(abs(whole.count - original) < 16, "\(whole.count) samples, \(original) in the original")
        }
    }

    @Test("FLAC and Ogg Vorbis are read through libsndfile's own frame count: FLAC gives the WAV's samples exactly")
    func compressedFormats() throws {
        let directory = try Fixtures.temporaryDirectory("parley-compressed")
        defer { try? FileManager.default.removeItem(at: directory) }
        let wav = try Reference.convert(Fixtures.recording("goforward.raw"), rate: 16_000, channels: 1, into: directory)
        let samples = try AudioFileReader.read(wav).samples
        for format in ["flac", "ogg"] {
            let path = directory.appendingPathComponent("goforward.\(format)").path
            let made = try ProcessRunner.run(["sox", wav, path])
            try #require(made.status == 0, "\(made.stderr)")
            let read = try AudioFileReader.read(path).samples
            if format == "flac" {
                #expect(read == samples)
            } else {
                #expect(abs(read.count - samples.count) < 1_024, "\(read.count) samples against \(samples.count)")
            }
        }
    }
}
