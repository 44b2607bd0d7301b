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

    /// The transcript line for this turn; nil before it is translated.
    func entry(number: Int) -> TranscriptEntry? {
        guard let translation else { return nil }
        return TranscriptEntry(turn: number, side: side, locale: locale, input: input, text: text,
                               confidence: confidence, targetLocale: target, translation: translation.text,
                               unknownWords: translation.unknownWords, glossary: translation.glossaryEntries,
                               times: times, assignment: assignment, route: translation.route)
    }
}

/// The recognition request of the side that is listening.
struct ListeningTurn: Sendable {
    let side: DialogueSide
    let request: any RecognitionRequest
    /// Session time the request began: the recognizer's times are relative to it.
    let startedAt: Double
    var speechStart: Double?
    var speechEnd: Double?
    /// The key was pressed: `finish()` is running and further audio is not fed.
    var finishing = false
}
