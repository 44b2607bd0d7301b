/// Who may speak next (`--turns`, `:turns`).
public enum TurnTaking: String, Sendable, Hashable, CaseIterable {
    /// Sides take turns strictly: each utterance is the language of the side whose turn it is.
    case alternate
    /// Either side may speak: each utterance is decoded in both languages and given to the
    /// side whose language it was (`SideAssignment`); `:flip` corrects a wrong choice.
    case auto
}
