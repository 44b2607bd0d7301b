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

    /// What the people are told of an outcome: a failure, or news; nil when there is nothing to say.
    enum Report: Equatable {
        case error(String)
        case notice(String)
    }

    /// The transcript file being written, if any.
    private(set) var writer: TranscriptWriter?
    /// What one line holds, for the reports: "turn" in a dialogue, "utterance" in a room.
    let entryName: String
    /// Whether the people can move the transcript to another file (`:transcript FILE`).
    let movable: Bool
    /// Every line of the session, in order.
    private var lines: [String] = []
    /// How many of the last `lines` the file has not taken yet.
    private var waiting = 0
    private var failing = false

    /// A log writing to `writer`, or keeping lines in memory alone without one.
    init(writer: TranscriptWriter?, entryName: String = "turn", movable: Bool = true) {
        self.writer = writer
        self.entryName = entryName
        self.movable = movable
    }

    /// What to tell the people of `outcome`: a first failure, once, and the file taking lines again.
    func report(_ outcome: Outcome) -> Report? {
        switch outcome {
        case .written, .stillFailing:
            return nil
        case let .failed(error as TranscriptError):
            return .error(error.description(entries: entryName + "s", movable: movable))
        case let .failed(error):
            return .error(String(describing: error))
        case let .caughtUp(count):
            guard count > 0, let path = writer?.path else { return nil }
            return .notice("transcript: \(path) takes lines again; \(count) waiting \(count == 1 ? "\(entryName) was" : "\(entryName)s were") written")
        }
    }

    /// The conversation is ending: lines still waiting get a last chance. What to tell: the
    /// file taking them, or how many it never took.
    mutating func lastChance() -> Report? {
        let outcome = report(flush())
        guard waiting > 0, let path = writer?.path else { return outcome }
        return .error("\(waiting) \(waiting == 1 ? entryName : entryName + "s") could not be written to the transcript \(path)")
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

/// Events that tell people of a failure or of news in one sentence: a dialogue's and a room's.
protocol TellsPeople {
    static func error(_ message: String) -> Self
    static func notice(_ message: String) -> Self
}

extension DialogueEvent: TellsPeople {}
extension RoomEvent: TellsPeople {}

extension TranscriptLog.Report {
    /// The report as a conversation's event.
    func event<Event: TellsPeople>() -> Event {
        switch self {
        case let .error(message): .error(message)
        case let .notice(message): .notice(message)
        }
    }
}
