import CSampleRate
import Foundation
public import ParleyCore

/// Reads an audio file into the recognizer's format, 16 kHz mono.
///
/// libsndfile reads WAV, FLAC, OGG and the other formats it knows; a file
/// named `.raw` or `.pcm` is headerless 16 kHz mono 16-bit little-endian, as
/// `pocketsphinx_continuous` assumes. Channels are averaged to mono, any
/// other rate is converted with libsamplerate, and audio below 16 kHz gets its
/// empty upper band filled with faint noise (`NarrowbandFill`). The reading
/// itself is `AudioFileStream`'s, block by block; `read` gathers the blocks.
public enum AudioFileReader {
    /// Extensions of headerless 16 kHz mono s16le files.
    static let rawExtensions: Set<String> = ["raw", "pcm"]

    /// The whole file as one 16 kHz mono chunk; throws `unreadableAudio` naming the file.
    /// For long files, read an `AudioFileStream` instead.
    public static func read(_ path: String) throws -> PCMChunk {
        let stream = try AudioFileStream(path: path)
        var samples: [Int16] = []
        while let chunk = try stream.next(samples: 65_536) { samples += chunk.samples }
        return PCMChunk(format: .recognition, samples: samples)
    }

    /// Interleaved frames averaged to one channel.
    static func downmix(_ samples: [Float], channels: Int) -> [Float] {
        guard channels > 1 else { return samples }
        return stride(from: 0, to: samples.count - channels + 1, by: channels).map { start in
            samples[start..<start + channels].reduce(0, +) / Float(channels)
        }
    }

    /// Floats in −1…1 as 16-bit samples, clipped (`src_float_to_short_array`).
    static func toInt16(_ samples: [Float]) -> [Int16] {
        var result = [Int16](repeating: 0, count: samples.count)
        samples.withUnsafeBufferPointer { input in
            result.withUnsafeMutableBufferPointer { out in
                src_float_to_short_array(input.baseAddress, out.baseAddress, Int32(input.count))
            }
        }
        return result
    }
}
