import ParleyCore

extension ApertiumTranslator {
    /// Translates `text` along `route` with no clean-up: the text is exactly what the route's
    /// `apertium -u` commands print when chained (`apertium -u fr-es | apertium -u spa-eng_US`).
    /// Throws `TranslationError` for refused text or a pipeline that failed twice.
    public func translateMarked(_ text: String, along route: TranslationRoute) async throws -> MarkedTranslation {
        try validate(text)
        return try await translate(text, along: route)
    }

    /// Translates `text` along `route`: through its one direction, or leg by leg, each leg
    /// reading the raw text of the one before (an empty leg ends the chain early).
    func translate(_ text: String, along route: TranslationRoute) async throws -> MarkedTranslation {
        var legs: [MarkedTranslation] = []
        var input = text
        for leg in route.legs {
            let translation = input.allSatisfy(\.isWhitespace)
                ? MarkedTranslation(result: TranslationResult(source: input, text: ""), rawText: "", markedText: nil,
                                    unknownWords: [], direction: leg.name)
                : try await session(for: leg).translate(input)
            legs.append(translation)
            input = translation.rawText
        }
        return route.isDirect ? legs[0] : MarkedTranslation(chaining: legs, along: route, source: text)
    }
}
