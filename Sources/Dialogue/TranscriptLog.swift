/// Where a session's transcript lines go: the transcript file, and memory. Every line
/// of the conversation is kept, so `:transcript FILE` copies this conversation's turns
/// exactly, whole, even when the file is shared with another conversation, was changed
/// behind Parley's back, or never took them (`--no-transcript`, a full disk). Lines the
/// file could not take wait, in order, and are written before the next one once it
/// takes them again.
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
    /// Every line of the session, in order.
    private var lines: [String] = []
    /// How many of the last `lines` the file has not taken yet.
    private var waiting = 0
    private var failing = false

    /// A log writing to `writer`, or keeping lines in memory alone without one.
    init(writer: TranscriptWriter?) {
        self.writer = writer
    }

    /// Lines the file has not taken yet.
    var unwrittenLines: ArraySlice<String> { lines.suffix(waiting) }

    /// Appends `line`, after any lines still waiting for the file.
    mutating func append(_ line: String) -> Outcome {
        lines.append(line)
        guard writer != nil else { return .written }
        waiting += 1
        return flush()
    }

    /// Writes the lines waiting for the file, in order, as far as it takes them.
    mutating func flush() -> Outcome {
        guard let writer, waiting > 0 else { return .written }
        let before = waiting
        do {
            while waiting > 0 {
                try writer.write(line: lines[lines.count - waiting])
                waiting -= 1
            }
        } catch {
            if failing { return .stillFailing }
            failing = true
            return .failed(error)
        }
        guard failing else { return .written }
        failing = false
        return .caughtUp(before - 1)
    }

    /// Writes this conversation's lines so far to a new file at `path` and goes on writing
    /// there; returns how many lines it holds. On failure nothing changes here.
    mutating func moveTo(_ path: String) throws -> Int {
        let newWriter = try TranscriptWriter(path: path)
        do {
            for line in lines { try newWriter.write(line: line) }
        } catch var error as TranscriptError {
            error.turnKept = false
            throw error
        }
        writer = newWriter
        waiting = 0
        failing = false
        return lines.count
    }

    /// Lets go of the file: the conversation has ended.
    mutating func close() {
        writer = nil
    }
}
