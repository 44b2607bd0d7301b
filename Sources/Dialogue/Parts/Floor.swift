import ParleyCore

/// The floor: who may speak next, what waits for a turn, and who spoke last.
///
/// Turns alternate: when a side's turn is translated and spoken, the floor passes to the
/// side it was spoken to (`next(after:)`). A line typed while a turn is translated or spoken
/// waits here for the turn it belongs to; an aside (`:say`, `:repeat`) keeps the floor where it
/// was and hands it back when it has been spoken. A speaker heard going on over their own
/// translation keeps the floor: their words wait here and are their next turn, before the
/// other side's. The coordinator asks; the floor decides.
struct Floor: Sendable {
    /// Typed lines that arrived while a turn was being translated or spoken, in order.
    private var waiting: [String] = []
    /// What a speaker said over their own translation, in order: each is their next turn.
    private var continuations: [(draft: TurnDraft, heard: HeardUtterance)] = []
    /// Whose turn resumes after the aside being spoken (`:say`, `:repeat`).
    var asideReturn: DialogueSide?
    /// Turns finished so far; the next is numbered one more.
    private(set) var finishedTurns = 0
    /// The last translation spoken, and the side it was for.
    private var lastSpoken: (text: String, side: DialogueSide)?
    /// The last translation a person interrupted, until `:repeat` has played it again.
    private var lastInterrupted: (text: String, side: DialogueSide)?

    /// The side that has the floor after `speaker`'s turn.
    func next(after speaker: DialogueSide) -> DialogueSide { speaker.other }

    /// Whether a typed line waits for a turn.
    var hasWaitingLine: Bool { !waiting.isEmpty }

    /// A typed line waits for the turn in progress to end.
    mutating func wait(_ line: String) { waiting.append(line) }

    /// The first line that waited, for the turn beginning now.
    mutating func takeWaitingLine() -> String? { waiting.isEmpty ? nil : waiting.removeFirst() }

    /// Nothing typed waits any more (Ctrl-C).
    mutating func dropWaitingLines() { waiting.removeAll() }

    /// Whether a speaker's words heard over their own translation wait to be their turn.
    var hasContinuation: Bool { !continuations.isEmpty }

    /// `draft`, heard as `heard` over the speaker's own translation, is their next turn.
    mutating func goOn(with draft: TurnDraft, heard: HeardUtterance) { continuations.append((draft, heard)) }

    /// The first of the speaker's words that waited, for the turn beginning now.
    mutating func takeContinuation() -> (draft: TurnDraft, heard: HeardUtterance)? {
        continuations.isEmpty ? nil : continuations.removeFirst()
    }

    /// A turn is finished: returns its number.
    mutating func turnFinished() -> Int {
        finishedTurns += 1
        return finishedTurns
    }

    /// `text` was spoken to `side` as a turn's translation.
    mutating func spoke(_ text: String, to side: DialogueSide) { lastSpoken = (text, side) }

    /// `side` interrupted the translation `text`: `:repeat` plays it again, once.
    mutating func interrupted(_ text: String, by side: DialogueSide) { lastInterrupted = (text, side) }

    /// What `:repeat` speaks, and to whom: the last interrupted translation (once), or else the
    /// last one spoken.
    mutating func takeRepeat() -> (text: String, side: DialogueSide)? {
        defer { lastInterrupted = nil }
        return lastInterrupted ?? lastSpoken
    }

    /// Whether `:repeat` has something to speak.
    var hasRepeat: Bool { (lastInterrupted ?? lastSpoken) != nil }
}
