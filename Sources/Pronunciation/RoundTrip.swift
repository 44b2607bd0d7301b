public import ParleyCore
import Foundation

/// How well a table carries espeak's own IPA back into espeak: for each word,
/// IPA from espeak → our mnemonics → espeak's phonemes → IPA, compared exactly.
public struct RoundTripReport: Sendable {
    /// One word that did not come back the same.
    public struct Mismatch: Sendable {
        /// The word.
        public var word: String
        /// espeak's IPA for the word.
        public var original: String
        /// espeak's IPA for our mnemonics, or the conversion error.
        public var returned: String
    }

    /// Words compared (words espeak gave no phonemes for are not counted).
    public var total = 0
    /// Words that came back identical.
    public var exact = 0
    /// The others.
    public var mismatches: [Mismatch] = []

    /// `exact / total`, 0 when nothing was compared.
    public var ratio: Double { total == 0 ? 0 : Double(exact) / Double(total) }

    /// Runs the round trip for `words` spoken by `voice`.
    public static func measure(words: [String], converter: IPAConverter, voice: String,
                               transcriber: any PhonemeTranscriber) async throws -> RoundTripReport {
        var report = RoundTripReport()
        for word in words {
            let original = try await transcriber.phonemes(of: word, voice: voice, notation: .ipa, separator: nil)
            guard !original.isEmpty else { continue }
            report.total += 1
            let returned: String
            do {
                let mnemonics = try converter.mnemonics(for: original, word: word)
                returned = try await transcriber.phonemes(of: "[[\(mnemonics)]]", voice: voice, notation: .ipa, separator: nil)
            } catch {
                returned = String(describing: error)
            }
            if returned == original {
                report.exact += 1
            } else {
                report.mismatches.append(Mismatch(word: word, original: original, returned: returned))
            }
        }
        return report
    }
}
