import Locales

/// How a text gets from one language to another: one Apertium direction, or a
/// chain of them through other languages (`fr-es` then `spa-eng_US`).
public struct TranslationRoute: Sendable, Hashable, CustomStringConvertible {
    /// The directions in order; each one's target is the next one's source.
    public var legs: [ApertiumDirection]

    /// A route over `legs`, which must not be empty and must chain.
    public init(legs: [ApertiumDirection]) {
        precondition(!legs.isEmpty, "a route has at least one direction")
        precondition(zip(legs, legs.dropFirst()).allSatisfy { $0.target == $1.source }, "the directions of a route must chain")
        self.legs = legs
    }

    /// Whether one direction does it all.
    public var isDirect: Bool { legs.count == 1 }

    /// The languages, source first and target last, as ISO 639-3 codes (`["fra", "spa", "eng"]`).
    public var languages: [String] { [legs[0].source] + legs.map(\.target) }

    /// The languages between source and target (`["spa"]`); empty for a direct route.
    public var pivots: [String] { Array(languages.dropFirst().dropLast()) }

    /// The languages in their shortest codes (`["fr", "es", "en"]`), as output shows them.
    public var shortLanguages: [String] { languages.map(ApertiumLanguageCodes.short) }

    /// The directions' names joined by `+`, e.g. `fr-es+spa-eng_US`.
    public var name: String { legs.map(\.name).joined(separator: "+") }

    public var description: String { name }
}
