import ParleyCore

/// A turn on its way through the pipeline, before it is written.
struct TurnDraft: Sendable {
    var side: DialogueSide
    var locale: LocaleTag
    var target: LocaleTag
    var input: InputKind
    var text: String
    var confidence: Double?
    var alternatives: [String] = []
    var times: TurnTimes
    var translation: TranslationResult?
    /// How a hands-free turn was given to its side; nil in alternating turns and for typed text.
    var assignment: SideAssignment?
    /// Seconds of the spoken translation played before a person interrupted it.
    var playedSeconds: Double?
    /// The clauses of a turn interpreted while it was spoken.
    var clauses: [ClauseRecord]?

    /// The transcript line for this turn; nil before it is translated.
    func entry(number: Int) -> TranscriptEntry? {
        guard let translation else { return nil }
        return TranscriptEntry(turn: number, side: side, locale: locale, input: input, text: text,
                               confidence: confidence, targetLocale: target, translation: translation.text,
                               unknownWords: translation.unknownWords, glossary: translation.glossaryEntries,
                               times: times, assignment: assignment, route: translation.route,
                               playedSeconds: playedSeconds, clauses: clauses)
    }

    /// The draft as a person corrected it (`text`): empty keeps the recognized text, a number
    /// picks an alternative (1 being the recognized text), anything else replaces it. A text
    /// that changed is translated again.
    func corrected(by text: String) -> TurnDraft {
        var draft = self
        let choices = [self.text] + alternatives
        if let number = Int(text), choices.indices.contains(number - 1) {
            draft.text = choices[number - 1]
        } else if !text.isEmpty {
            draft.text = text
        }
        if draft.text != self.text { draft.translation = nil }
        return draft
    }
}
