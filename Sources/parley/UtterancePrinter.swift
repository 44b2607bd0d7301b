import Foundation
import ParleyCore

/// Prints recognition events on stdout: one line per final result, plain or JSON,
/// and optionally the partial results before it.
struct UtterancePrinter {
    var json: Bool
    var partial: Bool

    /// The JSON shape of one utterance.
    struct Utterance: Encodable {
        struct Word: Encodable {
            var word: String
            var start: Double
            var end: Double
            var confidence: Double
        }
        var text: String
        var confidence: Double
        var alternatives: [String]
        var words: [Word]
    }

    /// Prints `event` if it is a final result, or a partial one when asked for;
    /// throws `StandardOutputError` when stdout does not take it.
    func print(_ event: RecognitionEvent) throws {
        switch event {
        case let .partial(text) where partial:
            try emit(json ? encode(["partial": text]) : "partial: \(text)")
        case let .clause(clause):
            try emit(json ? encode(Clause(clause: clause.text, start: Self.rounded(clause.start, places: 2),
                                          end: Self.rounded(clause.end, places: 2),
                                          committedAt: Self.rounded(clause.committedAt, places: 2)))
                          : "clause: \(clause.text)")
        case let .final(result):
            try emit(json ? encode(Self.utterance(result)) : result.text)
        default:
            break
        }
    }

    /// The JSON shape of a clause committed while the speech goes on (`--commit`); times in
    /// seconds from the start of the audio.
    struct Clause: Encodable {
        var clause: String
        var start: Double
        var end: Double
        var committedAt: Double
        enum CodingKeys: String, CodingKey { case clause, start, end, committedAt = "committed_at" }
    }

    static func utterance(_ result: RecognitionResult) -> Utterance {
        Utterance(text: result.text, confidence: rounded(result.confidence, places: 4),
                  alternatives: result.alternatives,
                  words: result.words.map { Utterance.Word(word: $0.text, start: rounded($0.start, places: 2),
                                                            end: rounded($0.end, places: 2),
                                                            confidence: rounded($0.confidence, places: 4)) })
    }

    static func rounded(_ value: Double, places: Int) -> Double {
        let scale = pow(10, Double(places))
        return (value * scale).rounded() / scale
    }

    private func encode(_ value: some Encodable) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return (try? String(decoding: encoder.encode(value), as: UTF8.self)) ?? "{}"
    }

    /// Writes a line at once, so a pipe sees each utterance as it is recognized.
    private func emit(_ line: String) throws {
        try StandardOutput.print(line)
    }
}
