public import ParleyCore

/// How a side's text came in.
public enum InputKind: String, Sendable, Hashable {
    /// Recognized from the microphone.
    case speech
    /// Typed at the prompt (or read from standard input).
    case typed
}

/// Something the conversation reports, in order, for the REPL to show.
public enum DialogueEvent: Sendable, Equatable {
    /// The state changed.
    case stateChanged(DialogueState)
    /// It is `side`'s turn; `typedOnlyReason` says why the side cannot speak, when it cannot.
    case turnStarted(side: DialogueSide, locale: LocaleTag, typedOnlyReason: String?)
    /// Input level while listening, per captured chunk.
    case level(DialogueSide, AudioLevel)
    /// The recognizer heard speech start.
    case speechStarted(DialogueSide)
    /// The hypothesis so far while the side speaks.
    case partial(DialogueSide, String)
    /// The side's final text, recognized or typed; `confidence` is nil for typed text.
    case transcript(side: DialogueSide, text: String, input: InputKind, confidence: Double?)
    /// Hands-free turns: the utterance was given to `side` (its language won) with `confidence`
    /// (0.5…1); `flipped` when `:flip` gave it there; `basis` what gave it (the language, or
    /// for the same short words in both languages, the voice or the turn order).
    case sideAssigned(side: DialogueSide, locale: LocaleTag, confidence: Double, flipped: Bool, basis: SideAssignment.Basis)
    /// Correction mode: the recognized text and its alternatives wait for confirmation.
    /// Submitting the text (edited or not) or an alternative's number (1 = the text) continues.
    case correctionOffered(side: DialogueSide, text: String, alternatives: [String])
    /// The translation of the side's text into the other side's locale; `route` lists the
    /// languages it went through (`["fr", "es", "en"]`) when no direct pair served it, else it is empty.
    case translation(side: DialogueSide, target: LocaleTag, text: String, unknownWords: [String], route: [String] = [])
    /// A clause `side` said while still speaking, translated into `target` and about to be
    /// spoken (simultaneous interpretation), `speed` times the listening side's rate.
    case clause(side: DialogueSide, target: LocaleTag, text: String, translation: String, speed: Double)
    /// `text` is being spoken to `side` in its voice.
    case speaking(side: DialogueSide, text: String)
    /// Speaking to `side` finished (played to the end or stopped).
    case spoken(DialogueSide)
    /// `side` began to speak over the translation: playback is held while their words are recognized.
    case bargeIn(DialogueSide)
    /// The sound over the translation was not an interruption (`reason`: no words, a backchannel,
    /// the translation's own echo); playback goes on.
    case bargeInDismissed(DialogueSide, reason: String)
    /// `side` interrupted the translation after `playedSeconds` of it; their words become their turn.
    case interrupted(DialogueSide, playedSeconds: Double)
    /// A turn was finished and written to the transcript.
    case turnFinished(TranscriptEntry)
    /// Something was cancelled on request; the text says what.
    case cancelled(String)
    /// Information for the people: settings changed, typed-only sides, missing stages.
    case notice(String)
    /// A stage failed; the conversation goes on. One sentence.
    case error(String)
}
