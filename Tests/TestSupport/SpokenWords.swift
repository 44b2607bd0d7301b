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
