import ParleyCore

extension ApertiumTranslator {
    /// Translates `text` along `route`: through its one direction, or leg by leg, each leg
    /// reading the raw text of the one before (an empty leg ends the chain early).
    func translate(_ text: String, along route: TranslationRoute) async throws -> MarkedTranslation {
        guard !route.isDirect else { return try await session(for: route.legs[0]).translate(text) }
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
        return MarkedTranslation(chaining: legs, along: route, source: text)
    }
}
