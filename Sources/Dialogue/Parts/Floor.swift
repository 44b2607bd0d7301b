import ParleyCore

/// The floor: who may speak next, what waits for a turn, and who spoke last.
///
/// Turns alternate: when a side's turn is translated and spoken, the floor passes to the
/// side it was spoken to (`next(after:)`). A line typed while a turn is translated or spoken
/// waits here for the turn it belongs to; an aside (`:say`, `:repeat`) keeps the floor where it
/// was and hands it back when it has been spoken. A speaker heard going on over their own
/// translation keeps the floor: their words wait here and are their next turn, before the
/// other side's (`wordsOverTranslation`), and their translation waits until they yield
/// (`speakerHolds`). Who spoke is kept here too: the last utterance its language or voice
/// gave a side (for `:flip`), and each side's voice, learned from what their language gave
/// them. The coordinator asks; the floor decides.
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
    /// The last utterance whose side what was heard decided, the one `:flip` re-assigns; nil
    /// once a turn nothing heard decided (typed, or given by the turn order alone) is written.
    private(set) var lastHeard: HeardUtterance?
    /// Each side's voice, learned from what their language gave them: it gives the same short
    /// words of both languages their side.
    private var voices = VoiceProfiles()

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

    /// A turn is finished: returns its number. `decidedByHearing`: what was heard gave it its
    /// side (its language or voice); one that was not leaves nothing for `:flip`.
    mutating func turnFinished(decidedByHearing: Bool = false) -> Int {
        finishedTurns += 1
        if !decidedByHearing { lastHeard = nil }
        lastHeard?.turnNumber = finishedTurns
        return finishedTurns
    }

    /// `heard`, with its side from the voice where the turn order gave it (both readings the
    /// same short words) and the sides' voices tell (`VoiceProfiles`).
    func byVoice(_ heard: HeardUtterance) -> HeardUtterance {
        guard heard.byTurnOrder, let pitch = heard.pitch, let party = voices.party(forHertz: pitch) else { return heard }
        var heard = heard
        heard.side = party == DialogueSide.a.index ? .a : .b
        (heard.byTurnOrder, heard.byVoice) = (false, true)
        return heard
    }

    /// `heard` becomes its side's turn, the one `:flip` re-assigns. One its language gave
    /// surely teaches its side's voice.
    mutating func took(_ heard: HeardUtterance) {
        var heard = heard
        if !heard.byTurnOrder, !heard.byVoice, heard.confidence >= VoiceProfiles.learningConfidence, let pitch = heard.pitch {
            heard.taughtVoice = voices.learn(pitch, party: heard.side.index)
        }
        lastHeard = heard
    }

    /// `:flip`: the last utterance heard was the other side's. The voice it taught is taught to
    /// that side instead; returns the utterance, now theirs and not yet a turn.
    mutating func flip() -> HeardUtterance? {
        guard var heard = lastHeard else { return nil }
        let side = heard.side.other
        if heard.taughtVoice, let pitch = heard.pitch {
            voices.forget(pitch, party: heard.side.index)
            voices.learn(pitch, party: side.index)
        }
        heard.side = side
        heard.turnNumber = nil
        lastHeard = heard
        return heard
    }

    /// What words heard over a translation do, by whose they are.
    enum WordsOverTranslation: Equatable {
        /// The translation's own speaker goes on: the translation plays on, and their words
        /// wait to be their next turn.
        case speakerGoesOn
        /// Its listener interrupts: the translation stops, and their words are their turn.
        case interrupts
        /// Said while it is still being translated: they wait, and follow it as the next turn.
        case followTranslation
        /// It has ended meanwhile: they are a turn now.
        case takeNow
    }

    /// What the words of `speaker`, heard by the request listening for `listener`, do while the
    /// dialogue is in `state`.
    func wordsOverTranslation(of speaker: DialogueSide, listener: DialogueSide, in state: DialogueState) -> WordsOverTranslation {
        switch state {
        case .held, .speaking: speaker == listener ? .interrupts : .speakerGoesOn
        case .translating: .followTranslation
        default: .takeNow
        }
    }

    /// The longest a translation waits for its speaker to pause.
    static let speakerWaitBound = 15.0
    /// The longest a translation waits for its speaker to yield the floor: a speaker who goes
    /// on longer hears it begin over them.
    static let yieldWaitBound = 30.0
    /// Audio a request needs to tell that speech began.
    static let speechOnsetSeconds = 0.3

    /// Whether a speaker holds the floor at `now`, for a translation that waits for them to
    /// yield it (a silence of `yield` seconds): someone is heard (`hearsSpeech`), or the last
    /// speech ended (`speechEnd`) less than the yield silence ago, or the request listening on
    /// (open since `listeningSince`, nil for none) has heard too little to tell speech.
    static func speakerHolds(at now: Double, yield: Double, hearsSpeech: Bool, speechEnd: Double?,
                             listeningSince: Double?) -> Bool {
        hearsSpeech || now < (speechEnd ?? -.infinity) + yield || now < (listeningSince ?? -.infinity) + speechOnsetSeconds
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
