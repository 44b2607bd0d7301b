import CSampleRate
import CSndFile
import Foundation
public import ParleyCore

/// Reads an audio file into the recognizer's format, 16 kHz mono.
///
/// libsndfile reads WAV, FLAC, OGG and the other formats it knows; a file
/// named `.raw` or `.pcm` is headerless 16 kHz mono 16-bit little-endian, as
/// `pocketsphinx_continuous` assumes. Channels are averaged to mono, any
/// other rate is converted with libsamplerate, and audio below 16 kHz gets its
/// empty upper band filled with faint noise (`NarrowbandFill`).
public enum AudioFileReader {
    /// Extensions of headerless 16 kHz mono s16le files.
    static let rawExtensions: Set<String> = ["raw", "pcm"]

    /// The whole file as one 16 kHz mono chunk; throws `unreadableAudio` naming the file.
    public static func read(_ path: String) throws -> PCMChunk {
        let (frames, format) = try readFloatFrames(path)
        let mono = downmix(frames, channels: format.channels)
        let rate = AudioFormat.recognition.sampleRate
        let converted = try resample(mono, from: format.sampleRate, to: rate, path: path)
        let filled = try NarrowbandFill.fill(converted, sourceRate: format.sampleRate, rate: rate) { noise in
            try resample(resample(noise, from: rate, to: format.sampleRate, path: path),
                         from: format.sampleRate, to: rate, path: path)
        }
        return PCMChunk(format: .recognition, samples: toInt16(filled))
    }

    /// Every frame as interleaved floats (`sf_open`, `sf_readf_float`), with the file's format.
    private static func readFloatFrames(_ path: String) throws -> ([Float], AudioFormat) {
        guard FileManager.default.fileExists(atPath: path) else {
            throw RecognitionError.unreadableAudio(path: path, reason: "the file does not exist")
        }
        var info = SF_INFO()
        if rawExtensions.contains((path as NSString).pathExtension.lowercased()) {
            info.samplerate = Int32(AudioFormat.recognition.sampleRate)
            info.channels = 1
            info.format = Int32(SF_FORMAT_RAW | SF_FORMAT_PCM_16 | SF_ENDIAN_LITTLE)
        }
        guard let file = sf_open(path, Int32(SFM_READ), &info) else {
            throw RecognitionError.unreadableAudio(path: path, reason: String(cString: sf_strerror(nil)))
        }
        defer { sf_close(file) }
        guard info.channels > 0, info.samplerate > 0 else {
            throw RecognitionError.unreadableAudio(path: path, reason: "the file declares no channels or sample rate")
        }
        let channels = Int(info.channels)
        var samples = [Float](repeating: 0, count: Int(info.frames) * channels)
        let read = samples.withUnsafeMutableBufferPointer { sf_readf_float(file, $0.baseAddress, info.frames) }
        samples.removeLast(samples.count - Int(max(0, read)) * channels)
        return (samples, AudioFormat(sampleRate: Int(info.samplerate), channels: channels))
    }

    /// Interleaved frames averaged to one channel.
    static func downmix(_ samples: [Float], channels: Int) -> [Float] {
        guard channels > 1 else { return samples }
        return stride(from: 0, to: samples.count - channels + 1, by: channels).map { start in
            samples[start..<start + channels].reduce(0, +) / Float(channels)
        }
    }

    /// Mono samples converted from `sourceRate` to `targetRate` (`src_simple`, best sinc converter).
    private static func resample(_ samples: [Float], from sourceRate: Int, to targetRate: Int,
                                 path: String) throws -> [Float] {
        guard sourceRate != targetRate, !samples.isEmpty else { return samples }
        let ratio = Double(targetRate) / Double(sourceRate)
        var output = [Float](repeating: 0, count: Int((Double(samples.count) * ratio).rounded(.up)) + 16)
        var generated = 0
        let status = samples.withUnsafeBufferPointer { input in
            output.withUnsafeMutableBufferPointer { out in
                var data = SRC_DATA(data_in: input.baseAddress, data_out: out.baseAddress,
                                    input_frames: input.count, output_frames: out.count,
                                    input_frames_used: 0, output_frames_gen: 0, end_of_input: 1, src_ratio: ratio)
                let status = src_simple(&data, Int32(SRC_SINC_BEST_QUALITY), 1)
                generated = data.output_frames_gen
                return status
            }
        }
        guard status == 0 else {
            throw RecognitionError.unreadableAudio(path: path, reason: String(cString: src_strerror(status)))
        }
        return Array(output.prefix(generated))
    }

    /// Floats in −1…1 as 16-bit samples, clipped (`src_float_to_short_array`).
    private static func toInt16(_ samples: [Float]) -> [Int16] {
        var result = [Int16](repeating: 0, count: samples.count)
        samples.withUnsafeBufferPointer { input in
            result.withUnsafeMutableBufferPointer { out in
                src_float_to_short_array(input.baseAddress, out.baseAddress, Int32(input.count))
            }
        }
        return result
    }
}
