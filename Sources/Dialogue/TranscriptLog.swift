/// Where a session's transcript lines go: the transcript file, or memory while
/// there is none (`--no-transcript`), so `:transcript FILE` can still write
/// every turn. With a regular file the lines are read back from it instead, so a
/// long conversation does not grow in memory; a device or pipe is never read
/// back, its lines are kept. Lines the file could not take (a full disk) wait in
/// memory, in order, and are written before the next one once it takes them again.
struct TranscriptLog {
    /// What one append did.
    enum Outcome {
        /// The line (and any waiting before it) is in the file, or there is no file.
        case written
        /// The file failed for the first time since it last worked; report it.
        case failed(any Error)
        /// The file still fails; already reported.
        case stillFailing
        /// The file works again: this many lines that had waited are now in it.
        case caughtUp(Int)
    }

    /// The transcript file being written, if any.
    private(set) var writer: TranscriptWriter?
    /// Every line of the session, kept when they cannot be read back from the file.
    private var keptLines: [String] = []
    /// Lines the file has not taken yet.
    private(set) var unwrittenLines: [String] = []
    private var failing = false

    /// A log writing to `writer`, or keeping lines in memory without one.
    init(writer: TranscriptWriter?) {
        self.writer = writer
    }

    private var keepsLines: Bool { writer.map { !$0.isRegularFile } ?? true }

    /// Appends `line`, after any lines still waiting for the file.
    mutating func append(_ line: String) -> Outcome {
        if keepsLines { keptLines.append(line) }
        guard writer != nil else { return .written }
        unwrittenLines.append(line)
        return flush()
    }

    /// Writes the lines waiting for the file, in order, as far as it takes them.
    mutating func flush() -> Outcome {
        guard let writer, !unwrittenLines.isEmpty else { return .written }
        let waiting = unwrittenLines.count
        do {
            while let line = unwrittenLines.first {
                try writer.write(line: line)
                unwrittenLines.removeFirst()
            }
        } catch {
            if failing { return .stillFailing }
            failing = true
            return .failed(error)
        }
        guard failing else { return .written }
        failing = false
        return .caughtUp(waiting - 1)
    }

    /// Writes the lines so far to a new file at `path` and goes on writing there;
    /// returns how many lines it holds. On failure nothing changes here.
    mutating func moveTo(_ path: String) throws -> Int {
        let lines = keepsLines ? keptLines : try writer!.writtenLines() + unwrittenLines
        let newWriter = try TranscriptWriter(path: path)
        do {
            for line in lines { try newWriter.write(line: line) }
        } catch var error as TranscriptError {
            error.turnKept = false
            throw error
        }
        writer = newWriter
        keptLines = newWriter.isRegularFile ? [] : lines
        unwrittenLines = []
        failing = false
        return lines.count
    }

    /// Lets go of the file: the conversation has ended.
    mutating func close() {
        writer = nil
    }
}
