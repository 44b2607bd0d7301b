import ParleyCore

/// Who spoke an utterance heard on the microphone both sides share, told by its language
/// (hands-free turns, `TurnTaking.auto`).
///
/// The utterance is decoded in both sides' languages from one pass of the recognizer; each
/// reading is translated through its side's direction, and the side whose language wins
/// (`LanguagePairDecision`: the recognizer's scores and the translator's unknown-word rate of
/// each reading) is given the utterance. It decides and asks; it speaks, shows and writes
/// nothing: the coordinator announces the side and goes on with the turn.
struct Attribution: Sendable {
    let recognizer: (any SpeechRecognizer)?
    let translation: TranslationStep

    /// Why hands-free turns cannot tell `first` from `second`, or nil when they can.
    func unavailability(first: LocaleTag, second: LocaleTag, separateDevices: Bool) async -> String? {
        if separateDevices {
            return "they tell the sides apart by language on one microphone, and each side has its own"
        }
        if first.language == second.language { return "\(OneLanguage(language: first.language))" }
        if let alike = TooAlikeByEar(first, second) { return "\(alike)" }
        guard let pair = recognizer as? any LanguagePairRecognizer else { return nil }
        return await pair.pairUnavailability(first: first, second: second).map { "\($0)" }
    }

    /// A request that hears `own` and `other` at once (the side whose turn it is first).
    func makePairRequest(own: LocaleTag, other: LocaleTag, options: RecognitionOptions) async throws -> any RecognitionRequest {
        guard own.language != other.language else { throw OneLanguage(language: own.language) }
        if let alike = TooAlikeByEar(own, other) { throw alike }
        guard let pair = recognizer as? any LanguagePairRecognizer else { throw PairUnavailable() }
        return try await pair.makePairRequest(first: own, second: other, options: options)
    }

    /// The utterance `hypotheses` read for `sides` (in their order), given to the side whose
    /// language it is; nil when neither reading has words.
    func attribute(_ hypotheses: [LanguageHypothesis], sides: [DialogueSide], configuration: DialogueConfiguration,
                   times: TurnTimes) async -> HeardUtterance? {
        let directions = sides.map { (configuration[$0].locale, configuration[$0.other].locale) }
        async let first = reading(hypotheses[0].text, directions[0])
        async let second = reading(hypotheses[1].text, directions[1])
        let translations = await [first, second]
        let evidence = hypotheses.indices.map {
            LanguagePairDecision.Evidence(hypotheses[$0], unknownWords: translations[$0]?.unknownWords.count)
        }
        guard let decision = LanguagePairDecision.decide(evidence[0], evidence[1]) else { return nil }
        var readings: [DialogueSide: HeardUtterance.Reading] = [:]
        for index in hypotheses.indices {
            readings[sides[index]] = .init(text: hypotheses[index].text, confidence: hypotheses[index].confidence,
                                           translation: translations[index])
        }
        var heard = HeardUtterance(readings: readings, side: sides[decision.winner], confidence: decision.confidence, times: times)
        heard.byTurnOrder = decision.sameWords
        return heard
    }

    /// A reading translated through its side's direction; nil where it has no words or failed.
    private func reading(_ text: String, _ direction: (LocaleTag, LocaleTag)) async -> TranslationResult? {
        guard !text.isEmpty else { return nil }
        return try? await translation.translate(text, from: direction.0, to: direction.1)
    }
}

/// Both sides speak one language: the language cannot tell which side spoke.
struct OneLanguage: Error, CustomStringConvertible {
    var language: String
    var description: String { "both sides speak \(language), so the language cannot tell who spoke" }
}

/// The recognizer cannot decode an utterance in two languages at once.
struct PairUnavailable: Error, CustomStringConvertible {
    var description: String { "this recognizer cannot hear both languages at once (Whisper can)" }
}

/// Two languages that the language heard does not tell apart often enough to give the floor by:
/// fewer than 95 % of sentences on the right side in `parley-bench pairs` (BENCHMARKS.md § Side
/// accuracy per language pair). For them the floor follows the turn order.
struct TooAlikeByEar: Error, CustomStringConvertible {
    /// The measured pairs below the mark, by language, each pair sorted.
    static let pairs: Set<[String]> = [["en", "fr"], ["es", "pt"], ["ca", "es"], ["es", "it"]]

    var first: LocaleTag
    var second: LocaleTag

    /// Nil where the language tells `first` from `second` well enough, or was not measured.
    init?(_ first: LocaleTag, _ second: LocaleTag) {
        guard Self.pairs.contains([first.language, second.language].sorted()) else { return nil }
        (self.first, self.second) = (first, second)
    }

    var description: String {
        "Parley tells \(first) from \(second) by ear on fewer than 95 % of sentences (BENCHMARKS.md § Side accuracy per language pair)"
    }
}
