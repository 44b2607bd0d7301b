/// Where the conversation is. Every change is reported as
/// `DialogueEvent.stateChanged`, and every state has a way out: typed input,
/// the end-of-turn key, cancel or swap.
///
/// A spoken turn runs `listening(A)` → `recognizing(A)` → `translating(A)` →
/// `speaking(B)` → `listening(B)`; a typed turn starts at `translating`.
public enum DialogueState: Sendable, Hashable, CustomStringConvertible {
    /// The side's turn, microphone closed: waiting for typed input or the key.
    case idle(DialogueSide)
    /// The microphone is open and feeds the recognizer in the side's locale.
    case listening(DialogueSide)
    /// Speech ended (endpoint or key); the final result is being computed.
    case recognizing(DialogueSide)
    /// The recognized text waits for the side to confirm, edit or pick an alternative.
    case correcting(DialogueSide)
    /// The side's text is being translated.
    case translating(DialogueSide)
    /// A translation is being spoken to this side, in its locale. With barge-in this side's
    /// microphone stays open, to hear a person over it; without, the microphone is closed.
    case speaking(DialogueSide)
    /// The conversation is over.
    case ended

    /// The side the state is about; nil once ended.
    public var side: DialogueSide? {
        switch self {
        case let .idle(side), let .listening(side), let .recognizing(side), let .correcting(side),
             let .translating(side), let .speaking(side):
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
        case .recognizing: return "recognizing"
        case .correcting: return "correcting"
        case .translating: return "translating"
        case .speaking: return "speaking"
        case .ended: return "ended"
        }
    }

    /// Whether the conversation waits for a person (typed input is handled at once).
    public var awaitsInput: Bool {
        switch self {
        case .idle, .listening, .correcting: return true
        case .recognizing, .translating, .speaking, .ended: return false
        }
    }

    public var description: String { side.map { "\(name)(\($0))" } ?? name }
}
