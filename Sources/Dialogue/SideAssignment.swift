/// How a hands-free turn (`TurnTaking.auto`) was given to its side: written
/// in the transcript beside the turn.
public struct SideAssignment: Sendable, Hashable {
    /// How sure Parley was that the side is right, 0.5…1; for a flip, the confidence
    /// of the decision it overrode.
    public var confidence: Double
    /// The turn that `:flip` re-assigned to this side; nil for Parley's own decision.
    public var flipOf: Int?
    /// What the same audio was in the other side's language.
    public var otherText: String

    /// Creates an assignment record.
    public init(confidence: Double, flipOf: Int? = nil, otherText: String) {
        self.confidence = confidence
        self.flipOf = flipOf
        self.otherText = otherText
    }

    /// The transcript's `assignment` object.
    var jsonObject: String {
        var json = JSONLine()
        json.field("confidence", number: confidence)
        json.field("flip_of", number: flipOf.map(Double.init))
        json.field("other_text", string: otherText)
        return json.finished
    }
}
