/// Where a session's transcript lines go: the transcript file, or memory while
/// there is none (`--no-transcript`, or the file failed), so `:transcript FILE`
/// can still write every turn. With a file the lines are read back from it
/// instead, so a long conversation does not grow in memory.
struct TranscriptLog {
    /// The transcript file being written, if any.
    private(set) var writer: TranscriptWriter?
    private var unwrittenLines: [String] = []

    /// A log writing to `writer`, or keeping lines in memory without one.
    init(writer: TranscriptWriter?) {
        self.writer = writer
    }

    /// Appends `line`. When the file fails, its lines and this one stay in
    /// memory from now on, and the failure is returned for the caller to report.
    mutating func append(_ line: String) -> (any Error)? {
        guard let writer else {
            unwrittenLines.append(line)
            return nil
        }
        do {
            try writer.write(line: line)
            return nil
        } catch {
            unwrittenLines = (try? writer.writtenLines()) ?? []
            unwrittenLines.append(line)
            self.writer = nil
            return error
        }
    }

    /// Writes the lines so far to a new file at `path` and goes on writing there;
    /// returns how many lines it holds.
    mutating func moveTo(_ path: String) throws -> Int {
        let lines = try writer?.writtenLines() ?? unwrittenLines
        let newWriter = try TranscriptWriter(path: path)
        for line in lines { try newWriter.write(line: line) }
        writer = newWriter
        unwrittenLines = []
        return lines.count
    }

    /// Lets go of the file: the conversation has ended.
    mutating func close() {
        writer = nil
    }
}
