import ParleyCore

/// The last utterance of a hands-free turn, in both sides' languages, kept so
/// that `:flip` can give it to the other side without hearing it again.
struct HeardUtterance: Sendable {
    /// One side's reading of the audio.
    struct Reading: Sendable {
        var text: String
        var confidence: Double
        /// Its translation into the other side's locale, when it was made while deciding.
        var translation: TranslationResult?
    }

    /// Each side's reading.
    var readings: [DialogueSide: Reading]
    /// The side the utterance is given to now.
    var side: DialogueSide
    /// The decision's confidence (kept through flips: it is the one a flip overrode).
    var confidence: Double
    /// Both readings were the same short words: the turn order gave the side, not the language.
    var byTurnOrder = false
    /// Both readings were the same short words, and the voice's pitch gave the side.
    var byVoice = false
    /// The voice's pitch, in hertz; nil where too little of it was voiced.
    var pitch: Double?
    /// Its pitch taught its side's voice (`VoiceProfiles.learn`): a flip moves it.
    var taughtVoice = false
    /// When it was spoken.
    var times: TurnTimes
    /// The transcript number of the turn it became, once written.
    var turnNumber: Int?

    /// What gave it its side.
    var basis: SideAssignment.Basis { byVoice ? .voice : byTurnOrder ? .turnOrder : .language }

    /// The turn for `side`'s reading; `flipOf` when it re-assigns a written turn.
    func draft(for side: DialogueSide, configuration: DialogueConfiguration, flipOf: Int? = nil) -> TurnDraft? {
        guard let reading = readings[side], !reading.text.isEmpty else { return nil }
        var draft = TurnDraft(side: side, locale: configuration[side].locale, target: configuration[side.other].locale,
                              input: .speech, text: reading.text, confidence: reading.confidence, times: times)
        draft.translation = reading.translation
        draft.assignment = SideAssignment(confidence: confidence, flipOf: flipOf,
                                          otherText: readings[side.other]?.text ?? "")
        if flipOf == nil { draft.assignment?.basis = basis }
        return draft
    }
}
