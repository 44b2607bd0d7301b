/// Who had the floor for a spoken turn, and why: written in the transcript beside the
/// turn as its `assignment`.
public struct SideAssignment: Sendable, Hashable {
    /// What gave the turn its side.
    public enum Basis: String, Sendable, Hashable {
        /// The side whose turn it was: alternating turns, one language heard; or both
        /// readings the same short words, which no language tells apart.
        case turnOrder = "turn"
        /// The language heard: the utterance was read in both languages and given to the
        /// side whose language won.
        case language
        /// `:flip` gave it to the other side.
        case flip
        /// The microphone it was heard on is that side's own.
        case device
        /// Both readings were the same short words, and the voice's pitch was that side's
        /// (`VoiceProfiles`).
        case voice
    }

    /// Heard over a translation that was playing: what it did to the floor.
    public enum OverTranslation: String, Sendable, Hashable {
        /// The speaker went on over their own translation and kept the floor.
        case wentOn = "went_on"
        /// The listener took the floor and the translation stopped.
        case interrupted
    }

    public var basis: Basis
    /// How sure Parley was that the side is right, 0.5…1; for a flip, the confidence
    /// of the decision it overrode. Nil where nothing was decided (turn order, device).
    public var confidence: Double?
    /// The turn that `:flip` re-assigned to this side; nil for Parley's own decision.
    public var flipOf: Int?
    /// What the same audio was in the other side's language; nil where it was heard in one.
    public var otherText: String?
    /// Set when the words were heard over a translation.
    public var overTranslation: OverTranslation?

    /// A side told by language (or a flip of one).
    public init(confidence: Double, flipOf: Int? = nil, otherText: String) {
        self.basis = flipOf == nil ? .language : .flip
        self.confidence = confidence
        self.flipOf = flipOf
        self.otherText = otherText
    }

    /// A side given by the turn order or by the device, with nothing decided.
    public init(basis: Basis) {
        self.basis = basis
    }

    /// The transcript's `assignment` object: `by` first; a decision's `confidence`, `flip_of`
    /// and `other_text`; `over_translation` where the words were heard over one.
    var jsonObject: String {
        var json = JSONLine()
        json.field("by", string: basis.rawValue)
        if let confidence {
            json.field("confidence", number: confidence)
            json.field("flip_of", number: flipOf.map(Double.init))
            json.field("other_text", string: otherText ?? "")
        }
        if let overTranslation { json.field("over_translation", string: overTranslation.rawValue) }
        return json.finished
    }
}
