/// Where the conversation is. Every change is reported as
/// `DialogueEvent.stateChanged`, and every state has a way out: typed input,
/// the end-of-turn key, cancel or swap.
///
/// A spoken turn runs `listening(A)` → `recognizing(A)` → `translating(A)` →
/// `speaking(B)` → `listening(B)`; a typed turn starts at `translating`. Interpreted while it
/// is spoken, it runs `listening(A)` → `interpreting(A)` → `recognizing(A)` → `speaking(B)`
/// (the clauses still queued) → `listening(B)`. A person speaking over a translation turns
/// `speaking(B)` into `held(B)` until their words decide.
public enum DialogueState: Sendable, Hashable, CustomStringConvertible {
    /// The side's turn, microphone closed: waiting for typed input or the key.
    case idle(DialogueSide)
    /// The microphone is open and feeds the recognizer in the side's locale.
    case listening(DialogueSide)
    /// The side goes on speaking while what it has said so far is translated and spoken to the
    /// other side, clause by clause (simultaneous interpretation); the microphone stays open.
    case interpreting(DialogueSide)
    /// Speech ended (endpoint or key); the final result is being computed.
    case recognizing(DialogueSide)
    /// The recognized text waits for the side to confirm, edit or pick an alternative.
    case correcting(DialogueSide)
    /// The side's text is being translated.
    case translating(DialogueSide)
    /// A translation is being spoken to this side, in its locale. With barge-in this side's
    /// microphone stays open, to hear a person over it; without, the microphone is closed.
    case speaking(DialogueSide)
    /// This side spoke over the translation it hears: the translation is held (paused) while
    /// their words are recognized, and those words decide whether it stops or plays on.
    case held(DialogueSide)
    /// The conversation is over.
    case ended

    /// The side the state is about; nil once ended.
    public var side: DialogueSide? {
        switch self {
        case let .idle(side), let .listening(side), let .interpreting(side), let .recognizing(side),
             let .correcting(side), let .translating(side), let .speaking(side), let .held(side):
            return side
        case .ended:
            return nil
        }
    }

    /// One word for the prompt: `idle`, `listening`, …
    public var name: String {
        switch self {
        case .idle: return "idle"
        case .listening: return "listening"
        case .interpreting: return "interpreting"
        case .recognizing: return "recognizing"
        case .correcting: return "correcting"
        case .translating: return "translating"
        case .speaking: return "speaking"
        case .held: return "held"
        case .ended: return "ended"
        }
    }

    /// Whether the conversation waits for a person (typed input is handled at once).
    public var awaitsInput: Bool {
        switch self {
        case .idle, .listening, .correcting: return true
        case .interpreting, .recognizing, .translating, .speaking, .held, .ended: return false
        }
    }

    public var description: String { side.map { "\(name)(\($0))" } ?? name }

    /// Where a line typed now goes.
    enum TypedLine: Equatable {
        /// It corrects the recognized text (empty keeps it).
        case correction
        /// It is `side`'s turn, at once (taking over from listening, where the side listens).
        case turn(DialogueSide)
        /// It waits for the turn in progress, and is then `side`'s.
        case waits(for: DialogueSide)
        /// Nothing: an empty line, or the conversation has ended.
        case nothing
    }

    /// Where a line typed now goes. `empty`: the line has no text; `clausesReceived`: clauses of
    /// the listening side's turn are being interpreted, so that side's turn goes on and the
    /// line is the other side's next.
    func typedLine(empty: Bool, clausesReceived: Bool) -> TypedLine {
        switch self {
        case .correcting: .correction
        case _ where empty: .nothing
        case let .idle(side): .turn(side)
        case let .interpreting(side): .waits(for: side.other)
        case let .recognizing(side) where clausesReceived: .waits(for: side.other)
        case let .listening(side), let .recognizing(side): .turn(side)
        case let .translating(side): .waits(for: side.other)
        case let .speaking(side), let .held(side): .waits(for: side)
        case .ended: .nothing
        }
    }
}
