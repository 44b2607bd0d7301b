import ParleyCore

/// One sentence as espeak reads it, and how its code points map back to the original text.
///
/// Offsets are in Unicode scalars (espeak counts code points), absolute in the
/// utterance's text for `original…` and relative to `text` for `spoken…`.
struct SpokenSentence: Sendable, Equatable {
    /// A run of `text` that comes from one place in the original.
    struct Piece: Sendable, Equatable {
        var spokenStart: Int
        var spokenCount: Int
        var originalStart: Int
        var originalCount: Int
        /// An override `[[…]]`: any position inside maps to the whole original word.
        var isReplacement: Bool
    }

    /// What espeak is given.
    var text: String
    /// Whether `text` holds `[[…]]` phoneme input.
    var usesPhonemes: Bool
    var pieces: [Piece]
    /// Each override's mnemonics with the word it replaces, for validation.
    var replacements: [(word: String, phonemes: String)]

    /// The original scalar range of an espeak word event (1-based `position`, `length` code points).
    func originalRange(position: Int, length: Int) -> Range<Int>? {
        let offset = position - 1
        guard let piece = pieces.last(where: { $0.spokenStart <= offset }),
              offset < piece.spokenStart + piece.spokenCount else { return nil }
        if piece.isReplacement { return piece.originalStart..<(piece.originalStart + piece.originalCount) }
        let start = piece.originalStart + offset - piece.spokenStart
        let end = min(start + length, piece.originalStart + piece.originalCount)
        return start..<end
    }

    static func == (lhs: SpokenSentence, rhs: SpokenSentence) -> Bool {
        lhs.text == rhs.text && lhs.pieces == rhs.pieces
    }
}

/// Splits text into sentences and replaces words that have an override by `[[mnemonics]]`;
/// phoneme input typed in the text (`[[h@l'oU]]`) is kept, and validated like an override.
struct SpokenTextBuilder {
    /// language code → lowercased word or phrase → mnemonics.
    var overrides: [String: String]
    /// Longest phrase, in words, that an override may cover.
    static let longestPhrase = 3

    /// The sentences of `text`, each ready for espeak.
    func sentences(of text: String) -> [SpokenSentence] {
        let scalars = Array(text.unicodeScalars)
        return Self.sentenceRanges(in: scalars).map { sentence(scalars, $0) }
    }

    /// Sentence ranges: a sentence ends after `.`, `!`, `?` or `…` (and closing quotes or
    /// brackets) followed by white space, or at a line break. Blank stretches are dropped.
    static func sentenceRanges(in scalars: [Unicode.Scalar]) -> [Range<Int>] {
        var ranges: [Range<Int>] = []
        var start = 0, index = 0
        func close(_ end: Int) {
            if scalars[start..<end].contains(where: { !$0.properties.isWhitespace }) { ranges.append(start..<end) }
            start = end
        }
        while index < scalars.count {
            let scalar = scalars[index]
            index += 1
            if scalar == "\n" { close(index); continue }
            guard ".!?…".unicodeScalars.contains(scalar) else { continue }
            while index < scalars.count, ".!?…\"'”’)]»".unicodeScalars.contains(scalars[index]) { index += 1 }
            if index == scalars.count || scalars[index].properties.isWhitespace { close(index) }
        }
        if start < scalars.count { close(scalars.count) }
        return ranges
    }

    /// Words of a sentence as scalar ranges: letters, digits and marks, with inner apostrophes and hyphens.
    static func wordRanges(in scalars: [Unicode.Scalar], _ range: Range<Int>) -> [Range<Int>] {
        var words: [Range<Int>] = []
        var index = range.lowerBound
        while index < range.upperBound {
            guard isWordScalar(scalars[index]) else { index += 1; continue }
            let start = index
            while index < range.upperBound, isWordScalar(scalars[index])
                || (index + 1 < range.upperBound && "'’-".unicodeScalars.contains(scalars[index]) && isWordScalar(scalars[index + 1])) {
                index += 1
            }
            words.append(start..<index)
        }
        return words
    }

    private static func isWordScalar(_ scalar: Unicode.Scalar) -> Bool {
        scalar.properties.isAlphabetic || scalar.properties.numericType != nil
            || scalar.properties.generalCategory == .nonspacingMark
    }

    private func sentence(_ scalars: [Unicode.Scalar], _ range: Range<Int>) -> SpokenSentence {
        let matches = phonemeSpans(scalars, range)
        var builder = Assembly(usesPhonemes: !matches.isEmpty)
        var cursor = range.lowerBound
        for match in matches {
            builder.appendOriginal(scalars, cursor..<match.range.lowerBound)
            builder.appendReplacement(match.phonemes, word: String(String.UnicodeScalarView(scalars[match.range])),
                                      original: match.range)
            cursor = match.range.upperBound
        }
        builder.appendOriginal(scalars, cursor..<range.upperBound)
        return builder.sentence
    }

    /// Everything read as phonemes, in order: phoneme input typed in the text (`[[h@l'oU]]`,
    /// as espeak itself accepts it) and, between those, words that have an override.
    private func phonemeSpans(_ scalars: [Unicode.Scalar], _ range: Range<Int>) -> [(range: Range<Int>, phonemes: String)] {
        var spans: [(range: Range<Int>, phonemes: String)] = []
        var cursor = range.lowerBound
        for typed in Self.typedPhonemes(in: scalars, range) {
            spans += overrideMatches(scalars, cursor..<typed.range.lowerBound) + [typed]
            cursor = typed.range.upperBound
        }
        return spans + overrideMatches(scalars, cursor..<range.upperBound)
    }

    /// `[[…]]` spans typed in the text, with what is between the brackets.
    static func typedPhonemes(in scalars: [Unicode.Scalar], _ range: Range<Int>) -> [(range: Range<Int>, phonemes: String)] {
        func isPair(_ index: Int, _ bracket: Unicode.Scalar) -> Bool {
            index + 1 < range.upperBound && scalars[index] == bracket && scalars[index + 1] == bracket
        }
        var spans: [(range: Range<Int>, phonemes: String)] = []
        var index = range.lowerBound
        while index < range.upperBound {
            guard isPair(index, "[") else { index += 1; continue }
            guard let close = (index + 2..<range.upperBound).first(where: { isPair($0, "]") }) else { break }
            spans.append((index..<(close + 2), String(String.UnicodeScalarView(scalars[(index + 2)..<close]))))
            index = close + 2
        }
        return spans
    }

    /// Words and phrases with an override, longest phrase first, left to right.
    private func overrideMatches(_ scalars: [Unicode.Scalar], _ range: Range<Int>) -> [(range: Range<Int>, phonemes: String)] {
        guard !overrides.isEmpty else { return [] }
        let words = Self.wordRanges(in: scalars, range)
        var matches: [(range: Range<Int>, phonemes: String)] = []
        var index = 0
        while index < words.count {
            var matched = false
            for count in stride(from: min(Self.longestPhrase, words.count - index), through: 1, by: -1) {
                let phrase = words[index..<(index + count)].map { String(String.UnicodeScalarView(scalars[$0])).lowercased() }
                if let phonemes = overrides[phrase.joined(separator: " ")] {
                    matches.append((words[index].lowerBound..<words[index + count - 1].upperBound, phonemes))
                    index += count
                    matched = true
                    break
                }
            }
            if !matched { index += 1 }
        }
        return matches
    }
}

/// Builds one `SpokenSentence` piece by piece.
private struct Assembly {
    var sentence: SpokenSentence
    private var spokenCount = 0

    init(usesPhonemes: Bool) {
        sentence = SpokenSentence(text: "", usesPhonemes: usesPhonemes, pieces: [], replacements: [])
    }

    /// Copies original text. With phoneme input on, a stray `[[` or `]]` (one without its
    /// partner) would be read as phonemes: each becomes bracket and space, keeping every offset.
    mutating func appendOriginal(_ scalars: [Unicode.Scalar], _ range: Range<Int>) {
        guard !range.isEmpty else { return }
        var text = String(String.UnicodeScalarView(scalars[range]))
        if sentence.usesPhonemes {
            text = text.replacingOccurrences(of: "[[", with: "[ ").replacingOccurrences(of: "]]", with: "] ")
        }
        append(text, original: range, isReplacement: false)
    }

    mutating func appendReplacement(_ phonemes: String, word: String, original: Range<Int>) {
        sentence.replacements.append((word, phonemes))
        append("[[\(phonemes)]]", original: original, isReplacement: true)
    }

    private mutating func append(_ text: String, original: Range<Int>, isReplacement: Bool) {
        let count = text.unicodeScalars.count
        sentence.pieces.append(.init(spokenStart: spokenCount, spokenCount: count, originalStart: original.lowerBound,
                                     originalCount: original.count, isReplacement: isReplacement))
        sentence.text += text
        spokenCount += count
    }
}

import Foundation
