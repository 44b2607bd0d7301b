import Foundation
import ParleyCore

/// Word errors of recognized speech against what was said: the word-level
/// Levenshtein distance (substitutions, insertions and deletions all count)
/// after both texts are written the way the reference transcripts write them.
public enum SpokenWords {
    /// `text` as the transcripts write it: lower case, accents folded ("está" is "esta"),
    /// punctuation gone (hyphenated words apart, apostrophes kept), numbers up to twelve spelled
    /// out in `language` ("en", "es" or "fr"; others keep their digits), "Mr." as "mister".
    public static func normalized(_ text: String, language: String = "en") -> [String] {
        let folded = text.replacingOccurrences(of: "’", with: "'")
            .folding(options: [.caseInsensitive, .diacriticInsensitive], locale: Locale(identifier: "en_US_POSIX"))
            .lowercased()
        let cleaned = String(folded.map { $0.isLetter || $0.isNumber || $0 == "'" ? $0 : " " })
        let spelled = spelledWords[language] ?? [:]
        return cleaned.split(separator: " ").map { spelled[String($0)] ?? String($0) }
    }

    /// Word edits that turn `reference` into `hypothesis`, both normalized in `language`.
    public static func errors(_ hypothesis: String, reference: String, language: String = "en") -> Int {
        editDistance(normalized(reference, language: language), normalized(hypothesis, language: language))
    }

    /// The distinct words of `text` that carry its meaning: `normalized`, without the language's
    /// function words (articles, pronouns, prepositions, conjunctions, forms of "be" and "have"),
    /// so that a reading which shares only "de la … el" with a sentence shares nothing.
    public static func contentWords(_ text: String, language: String = "en") -> Set<String> {
        let function = functionWords[language] ?? []
        return Set(normalized(text, language: language).filter { !function.contains($0) })
    }

    /// The share of `reference`'s content words that `hypothesis` has too: 0 when the
    /// reference has none.
    public static func sharedContent(_ hypothesis: String, reference: String, language: String = "en") -> Double {
        let said = contentWords(reference, language: language)
        guard !said.isEmpty else { return 0 }
        return Double(said.intersection(contentWords(hypothesis, language: language)).count) / Double(said.count)
    }

    /// Function words per language, accents folded as `normalized` folds them.
    private static let functionWords: [String: Set<String>] = [
        "en": Set("""
            a an the and or but if of to in on at by for from with as into than then that this these those it its \
            he she they we you i me him her them us my your his our their is are was were be been being am \
            have has had do does did not no so there here what which who whom whose where when how
            """.split(whereSeparator: \.isWhitespace).map(String.init)),
        "es": Set("""
            el la los las un una unos unas lo al del de a en con por para sin sobre entre y e o u ni que \
            se su sus mi mis tu tus le les me te nos os yo el ella ellos ellas usted ustedes es son era \
            fue ser estar esta esto este estas estos esa ese eso hay ha he han haber como mas pero si no muy
            """.split(whereSeparator: \.isWhitespace).map(String.init)),
        "fr": Set("""
            le la les l' un une des du de d' a au aux en dans sur sous par pour avec sans et ou mais ni que \
            qu' qui ce cet cette ces se sa son ses mon ma mes ton ta tes il elle ils elles on je tu nous vous \
            est sont etait etre avoir a ont ne pas plus y
            """.split(whereSeparator: \.isWhitespace).map(String.init)),
    ]

    /// `errors` over the reference's word count (1 when the reference has no words but the hypothesis has).
    public static func errorRate(_ hypothesis: String, reference: String, language: String = "en") -> Double {
        let words = normalized(reference, language: language).count
        let edits = errors(hypothesis, reference: reference, language: language)
        return words == 0 ? (edits == 0 ? 0 : 1) : Double(edits) / Double(words)
    }

    /// Digits and abbreviations as the transcripts spell them, per language.
    private static let spelledWords: [String: [String: String]] = [
        "en": table(["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve"],
                    extra: ["mr": "mister", "mrs": "missus"]),
        "es": table(["cero", "uno", "dos", "tres", "cuatro", "cinco", "seis", "siete", "ocho", "nueve", "diez", "once", "doce"]),
        "fr": table(["zero", "un", "deux", "trois", "quatre", "cinq", "six", "sept", "huit", "neuf", "dix", "onze", "douze"]),
    ]

    private static func table(_ numbers: [String], extra: [String: String] = [:]) -> [String: String] {
        var table = extra
        for (value, word) in numbers.enumerated() { table[String(value)] = word }
        return table
    }
}
