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
}
