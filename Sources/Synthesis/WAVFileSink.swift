public import ParleyCore
import CSndFile
import Foundation
import Synchronization

/// An audio sink that writes 16-bit PCM WAV through libsndfile.
///
/// The file is opened by `init`, written chunk by chunk as synthesis produces
/// them, and closed by `finish()` or `close()` (or when the sink goes away). The libsndfile
/// handle has this one owner, and every call on it holds the sink's lock.
public final class WAVFileSink: AudioSink {
    /// The file being written.
    public let path: String
    /// The format every chunk must have.
    public let format: AudioFormat
    private let handle: Mutex<Handle>

    /// The open libsndfile handle and how many frames went into it.
    private struct Handle: ~Copyable {
        var file: OpaquePointer?
        var frames = 0
    }

    /// `sf_open` for writing a WAV file of `format` at `path`, replacing any file there.
    public init(path: String, format: AudioFormat = .synthesis) throws {
        var info = SF_INFO()
        info.samplerate = Int32(format.sampleRate)
        info.channels = Int32(format.channels)
        info.format = Int32(SF_FORMAT_WAV | SF_FORMAT_PCM_16)
        guard let file = sf_open(path, Int32(SFM_WRITE), &info) else {
            throw AudioFileError(path: path, reason: AudioFileError.whyNotWritable(path) ?? String(cString: sf_strerror(nil)))
        }
        self.path = path
        self.format = format
        handle = Mutex(Handle(file: file))
    }

    deinit { try? finish() }

    /// Frames written so far.
    public var framesWritten: Int { handle.withLock { $0.frames } }

    /// `sf_writef_short`: appends the chunk to the file.
    public func enqueue(_ chunk: PCMChunk) async throws {
        precondition(chunk.format == format, "a WAV sink takes chunks in its own format")
        try handle.withLock { handle in
            guard let file = handle.file else { throw AudioFileError(path: path, reason: "the file is already closed") }
            let frames = chunk.samples.count / format.channels
            let written = chunk.samples.withUnsafeBufferPointer { sf_writef_short(file, $0.baseAddress, sf_count_t(frames)) }
            guard written == frames else { throw AudioFileError(path: path, reason: String(cString: sf_strerror(file))) }
            handle.frames += frames
        }
    }

    /// `sf_write_sync`: everything enqueued is on disk.
    public func drain() async throws {
        handle.withLock { handle in
            if let file = handle.file { sf_write_sync(file) }
        }
    }

    /// Nothing is waiting to be played: what was enqueued is already written.
    public func cancelPlayback() async {}

    /// Closes the file, as `finish()` does, for a caller that only has an `AudioSink`;
    /// a caller that must hear of a failed write calls `finish()` first.
    public func close() async { try? finish() }

    /// `sf_close`: finishes the header and closes the file; later calls do nothing.
    public func finish() throws {
        try handle.withLock { handle in
            guard let file = handle.file else { return }
            handle.file = nil
            let status = sf_close(file)
            guard status == 0 else { throw AudioFileError(path: path, reason: String(cString: sf_error_number(status))) }
        }
    }
}

/// An audio file could not be written or read.
public struct AudioFileError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The file.
    public var path: String
    /// Why, in words: the folder's state, or what libsndfile said.
    public var reason: String

    /// `reason` is tidied: libsndfile's "System error : …." becomes its plain message.
    public init(path: String, reason: String) {
        self.path = path
        var plain = reason.trimmingCharacters(in: .whitespacesAndNewlines)
        if plain.hasPrefix("System error :") { plain = String(plain.dropFirst("System error :".count)).trimmingCharacters(in: .whitespaces) }
        while plain.hasSuffix(".") { plain.removeLast() }
        self.reason = plain.isEmpty ? "libsndfile gave no reason" : plain.prefix(1).lowercased() + plain.dropFirst()
    }

    /// One sentence: what failed and why.
    public var description: String { "cannot write \(path): \(reason)" }

    /// What about `path`'s folder stops a file being created there, if anything.
    static func whyNotWritable(_ path: String) -> String? {
        let files = FileManager.default
        var isFolder: ObjCBool = false
        if files.fileExists(atPath: path, isDirectory: &isFolder), isFolder.boolValue { return "it is a folder" }
        let parent = (path as NSString).deletingLastPathComponent
        let folder = parent.isEmpty ? "." : parent
        guard files.fileExists(atPath: folder, isDirectory: &isFolder) else { return "the folder \(folder) does not exist" }
        guard isFolder.boolValue else { return "\(folder) is not a folder" }
        if files.fileExists(atPath: path) ? !files.isWritableFile(atPath: path) : !files.isWritableFile(atPath: folder) {
            return "permission denied"
        }
        return nil
    }
}
