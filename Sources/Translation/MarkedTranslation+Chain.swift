import ParleyCore

extension MarkedTranslation {
    /// One translation made of the legs of `route`, each leg's raw text the next one's input.
    ///
    /// The text and marks are the last leg's; the unknown words are every
    /// leg's, each word once, in the order they were met (a French word
    /// Apertium passes through into the Spanish is usually unknown to the
    /// Spanish–English leg as well). No clean-up happens between legs: the
    /// text in the pivot language is never shown or spoken, and each leg reads
    /// exactly what `apertium -u` printed for the one before.
    init(chaining legs: [MarkedTranslation], along route: TranslationRoute, source: String) {
        let last = legs[legs.count - 1]
        var seen = Set<String>()
        let unknown = legs.flatMap(\.unknownWords).filter { seen.insert($0.word).inserted }
        self.init(result: TranslationResult(source: source, text: last.result.text, unknownWords: unknown.map(\.word),
                                            route: route.shortLanguages),
                  rawText: last.rawText, markedText: last.markedText, unknownWords: unknown,
                  direction: route.name, legs: legs)
    }
}
