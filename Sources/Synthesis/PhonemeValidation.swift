extension ESpeakEngine {
    /// A phoneme that marks the end of a validated word: espeak stops reading a word at
    /// its first unknown symbol, so the marker survives only when every symbol before it was read.
    static let endMarker = "_:"

    /// The first symbol of `mnemonics` that the selected voice does not know, with its
    /// 1-based position; nil when espeak reads all of it. Uses `espeak_TextToPhonemes`
    /// with phoneme input on.
    func firstUnknownPhoneme(in mnemonics: String) throws -> (symbol: String, position: Int)? {
        if let bracket = mnemonics.firstIndex(where: { $0 == "[" || $0 == "]" }) {
            return (String(mnemonics[bracket]), mnemonics.distance(from: mnemonics.startIndex, to: bracket) + 1)
        }
        var offset = 0
        for word in mnemonics.split(separator: " ", omittingEmptySubsequences: false) {
            defer { offset += word.count + 1 }
            guard !word.isEmpty, try !readsWhole(String(word)) else { continue }
            let characters = Array(word)
            for length in 1...characters.count where try !readsWhole(String(characters[..<length])) {
                return (String(characters[length - 1]), offset + length)
            }
            return (String(characters[characters.count - 1]), offset + characters.count)
        }
        return nil
    }

    /// Whether espeak reads every symbol of one phoneme word.
    private func readsWhole(_ word: String) throws -> Bool {
        let output = try textToPhonemes("[[\(word)\(Self.endMarker)]]", mode: 0, phonemeInput: true)
        return output.joined().trimmingCharacters(in: .whitespaces).hasSuffix(Self.endMarker)
    }
}

import Foundation
