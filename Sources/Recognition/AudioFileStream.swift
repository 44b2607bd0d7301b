import CSndFile
import Foundation
import Locales
public import ParleyCore

/// An audio file read block by block and converted to the recognizer's format,
/// 16 kHz mono, as it is read: an hour of audio is never held whole.
///
/// The header is checked before anything is read or allocated: a sample rate
/// outside 4–384 kHz, more than 32 channels or, for uncompressed PCM (WAV, AIFF,
/// raw…), more frames than the file has bytes for, is refused with one sentence.
/// Compressed files (FLAC, Ogg, MP3…) go by libsndfile's own frame count. Conversion
/// is `AudioFileReader`'s: channels averaged, libsamplerate for other rates,
/// `NarrowbandFill` below 16 kHz.
///
///     let stream = try AudioFileStream(path: "interview.flac")
///     while let chunk = try stream.next(samples: 2048) { feed(chunk) }
public final class AudioFileStream {
    /// The sample rates a file may declare.
    public static let sampleRates = 4_000...384_000
    /// The channel counts a file may declare.
    public static let channelCounts = 1...32
    /// Frames read from the file per block.
    static let blockFrames = 4_096

    /// The file's path.
    public let path: String
    /// The file's own rate and channel count.
    public let sourceFormat: AudioFormat
    private let file: OpaquePointer
    private let converter: SampleRateConverter?
    private let filler: NarrowbandFiller?
    private var converted: [Int16] = []
    private var convertedStart = 0
    private var finished = false

    /// Why `sf_open` refused the file just now, in words a person can act on.
    static func openFailure() -> String {
        switch Int(sf_error(nil)) {
        case Int(SF_ERR_UNRECOGNISED_FORMAT):
            "it is not in an audio format libsndfile reads (WAV, FLAC, Ogg, AIFF and others; headerless 16 kHz 16-bit mono audio needs the .raw extension)"
        case Int(SF_ERR_MALFORMED_FILE):
            "its audio header is damaged"
        case Int(SF_ERR_UNSUPPORTED_ENCODING):
            "its audio is encoded in a way libsndfile cannot decode"
        default:
            "libsndfile refused it (" + String(cString: sf_strerror(nil)).replacingOccurrences(of: "System error : ", with: "")
                .trimmingCharacters(in: CharacterSet(charactersIn: ". \n")).replacingOccurrences(of: ". ", with: ": ") + ")"
        }
    }

    /// Opens `path` (`sf_open`) and checks its header; throws `unreadableAudio` naming the file.
    public init(path: String) throws {
        try Self.checkRegularFile(path)
        var info = SF_INFO()
        if AudioFileReader.rawExtensions.contains((path as NSString).pathExtension.lowercased()) {
            info.samplerate = Int32(AudioFormat.recognition.sampleRate)
            info.channels = 1
            info.format = Int32(SF_FORMAT_RAW | SF_FORMAT_PCM_16 | SF_ENDIAN_LITTLE)
        }
        guard let file = sf_open(path, Int32(SFM_READ), &info) else {
            throw RecognitionError.unreadableAudio(path: path, reason: Self.openFailure())
        }
        do {
            try Self.checkHeader(info, path: path)
            let format = AudioFormat(sampleRate: Int(info.samplerate), channels: Int(info.channels))
            let rate = AudioFormat.recognition.sampleRate
            converter = format.sampleRate == rate ? nil : try SampleRateConverter(from: format.sampleRate, to: rate, path: path)
            filler = format.sampleRate < rate ? try NarrowbandFiller(sourceRate: format.sampleRate, rate: rate, path: path) : nil
            sourceFormat = format
        } catch {
            sf_close(file)
            throw error
        }
        self.file = file
        self.path = path
    }

    deinit { sf_close(file) }

    /// The next `count` samples at 16 kHz mono (fewer at the end of the file); nil once all were given.
    public func next(samples count: Int) throws -> PCMChunk? {
        precondition(count > 0, "a chunk holds at least one sample")
        while converted.count - convertedStart < count, !finished { try readBlock() }
        guard convertedStart < converted.count else { return nil }
        let end = min(convertedStart + count, converted.count)
        let chunk = PCMChunk(format: .recognition, samples: Array(converted[convertedStart..<end]))
        convertedStart = end
        if convertedStart >= Self.blockFrames {
            converted.removeFirst(convertedStart)
            convertedStart = 0
        }
        return chunk
    }

    /// Reads one block of frames (`sf_readf_float`) and appends it, converted.
    private func readBlock() throws {
        let channels = sourceFormat.channels
        var frames = [Float](repeating: 0, count: Self.blockFrames * channels)
        let read = Int(frames.withUnsafeMutableBufferPointer { sf_readf_float(file, $0.baseAddress, sf_count_t(Self.blockFrames)) })
        guard sf_error(file) == 0 else {
            throw RecognitionError.unreadableAudio(path: path, reason: String(cString: sf_strerror(file)))
        }
        frames.removeLast(frames.count - max(0, read) * channels)
        let end = read < Self.blockFrames
        var mono = AudioFileReader.downmix(frames, channels: channels)
        if let converter { mono = try converter.process(mono, end: end) }
        if let filler { mono = try filler.process(mono, end: end) }
        converted += AudioFileReader.toInt16(mono)
        finished = end
    }

    /// A missing file, a directory or a FIFO is named as such rather than handed to libsndfile.
    private static func checkRegularFile(_ path: String) throws {
        var info = stat()
        guard stat(path, &info) == 0 else {
            let reason = errno == ENOENT ? "the file does not exist" : String(cString: strerror(errno)).lowercased()
            throw RecognitionError.unreadableAudio(path: path, reason: reason)
        }
        guard info.st_mode & S_IFMT == S_IFREG else {
            throw RecognitionError.unreadableAudio(path: path, reason: "it is \(DataFile.fileKind(info.st_mode)), not an audio file")
        }
        guard info.st_size > 0 else { throw RecognitionError.unreadableAudio(path: path, reason: "the file is empty") }
    }

    /// Refuses a header whose rate, channel count or length cannot be true or cannot be converted.
    private static func checkHeader(_ info: SF_INFO, path: String) throws {
        func refuse(_ reason: String) -> RecognitionError { .unreadableAudio(path: path, reason: reason) }
        guard sampleRates.contains(Int(info.samplerate)) else {
            throw refuse("its header claims a sample rate of \(info.samplerate) Hz; Parley reads "
                + "\(sampleRates.lowerBound) to \(sampleRates.upperBound) Hz")
        }
        guard channelCounts.contains(Int(info.channels)) else {
            throw refuse("its header claims \(info.channels) channels; Parley reads \(channelCounts.lowerBound) to \(channelCounts.upperBound)")
        }
        guard info.frames >= 0 else { throw refuse("its header claims a negative length") }
        if let bytes = bytesPerSample(info.format), let size = fileSize(path),
           info.frames > size / Int64(bytes * Int(info.channels)) {
            throw refuse("its header claims \(info.frames) frames, more than its \(size) bytes can hold")
        }
    }

    /// Containers that store PCM samples as they are, so their size bounds the frame count.
    /// FLAC also reports a PCM subtype, but compresses it; Ogg, MP3 and the others encode.
    private static let uncompressedContainers = Set([
        SF_FORMAT_WAV, SF_FORMAT_WAVEX, SF_FORMAT_W64, SF_FORMAT_RF64, SF_FORMAT_AIFF, SF_FORMAT_AU,
        SF_FORMAT_RAW, SF_FORMAT_CAF, SF_FORMAT_NIST, SF_FORMAT_IRCAM,
    ].map { Int32($0) })

    /// Bytes per sample of uncompressed PCM in an uncompressed container; nil for anything
    /// compressed, whose length is libsndfile's own frame count and cannot be checked against the size.
    private static func bytesPerSample(_ format: Int32) -> Int? {
        guard uncompressedContainers.contains(format & Int32(SF_FORMAT_TYPEMASK)) else { return nil }
        switch format & Int32(SF_FORMAT_SUBMASK) {
        case Int32(SF_FORMAT_PCM_S8), Int32(SF_FORMAT_PCM_U8): return 1
        case Int32(SF_FORMAT_PCM_16): return 2
        case Int32(SF_FORMAT_PCM_24): return 3
        case Int32(SF_FORMAT_PCM_32), Int32(SF_FORMAT_FLOAT): return 4
        case Int32(SF_FORMAT_DOUBLE): return 8
        default: return nil
        }
    }

    private static func fileSize(_ path: String) -> Int64? {
        var info = stat()
        return stat(path, &info) == 0 ? Int64(info.st_size) : nil
    }
}
