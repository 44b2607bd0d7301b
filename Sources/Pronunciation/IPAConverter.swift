public import Locales
import Foundation

/// Converts IPA into the eSpeak NG phoneme mnemonics of one language, and checks
/// mnemonic strings before they reach espeak.
///
/// espeak has no IPA input, so each IPA symbol is looked up in the language's
/// table (longest match first) after normalization. Phonemes are joined with
/// `|`, espeak's own separator inside `[[…]]`, so that two short phonemes are
/// never read as one longer one (`a|I` is not `aI`). `ˈ` becomes `'`, `ˌ` `,`,
/// and a space separates the words of a phrase.
///
///     let converter = try IPAConverter.load(language: "en", from: directories)
///     try converter.mnemonics(for: "təˈmɑːtəʊ")   // "t|@|'m|0|t|@|U"
public struct IPAConverter: Sendable {
    /// The language's symbol table.
    public let table: IPASymbolTable
    /// The rewrites applied before lookup.
    public let normalization: IPANormalization

    /// Creates a converter from loaded data.
    public init(table: IPASymbolTable, normalization: IPANormalization) {
        self.table = table
        self.normalization = normalization
    }

    /// The converter for `language` from the shipped data and the user's overrides.
    public static func load(language: String, from directories: DataDirectories) throws -> IPAConverter {
        IPAConverter(table: try IPASymbolTable.load(language: language, from: directories),
                     normalization: try IPANormalization.load(language: language, from: directories))
    }

    /// The language code.
    public var language: String { table.language }

    /// The mnemonics for `ipa`; throws naming the first symbol that has no equivalent.
    public func mnemonics(for ipa: String, word: String = "") throws -> String {
        var scan = Scan(ipa: ipa, converter: self)
        var words: [String] = []
        var current = WordBuilder()
        while let unit = scan.current {
            if unit.scalar.properties.isWhitespace {
                try current.finish(into: &words, ipa: ipa, positions: scan.positions)
                scan.advance(by: 1)
            } else if let mark = Self.stressMarks[unit.scalar] {
                current.addStress(mark, source: unit.source)
                scan.advance(by: 1)
            } else {
                try convertSymbol(at: &scan, into: &current)
            }
        }
        try current.finish(into: &words, ipa: ipa, positions: scan.positions)
        guard !words.isEmpty else { throw PronunciationError.emptyPronunciation(word: word) }
        return words.joined(separator: " ")
    }

    /// Converts the table symbol at the scan position, or fails naming the character there.
    private func convertSymbol(at scan: inout Scan, into word: inout WordBuilder) throws {
        guard let symbol = tableSymbol(in: scan.scalars, at: scan.index) else {
            let source = scan.current!.source
            throw PronunciationError.unknownSymbol(symbol: Self.character(of: scan.ipa, atScalar: source),
                                                   position: scan.positions[source], ipa: scan.ipa, language: language)
        }
        word.add(symbol.mnemonic)
        scan.advance(by: symbol.length)
    }

    /// `ipa` with the normalization rules applied. A rule applies only where the
    /// table has no symbol at least as long, so what espeak writes (`n̩`, `tʃ`)
    /// stays; each scalar keeps the index of the typed scalar it came from.
    func normalized(_ ipa: String) -> [(scalar: Unicode.Scalar, source: Int)] {
        let scalars = ArraySlice(Array(ipa.unicodeScalars))
        var output: [(scalar: Unicode.Scalar, source: Int)] = []
        var index = 0
        while index < scalars.count {
            let symbol = tableSymbol(in: scalars, at: index)?.length ?? 0
            if let rule = normalization.match(in: scalars, at: index), rule.length > symbol {
                output += rule.replacement.map { ($0, index) }
                index += rule.length
            } else {
                let length = max(symbol, 1)
                output += (index..<index + length).map { (scalars[$0], $0) }
                index += length
            }
        }
        return output
    }

    /// The longest table symbol at `index`. A symbol ending in `ɹ` (`ɑːɹ`) before
    /// a vowel gives way to the one without it: espeak adds a linking r after
    /// an r-coloured vowel, so `ɑː` + `ɹ` is what it wrote.
    func tableSymbol(in scalars: ArraySlice<Unicode.Scalar>, at index: Int) -> (length: Int, mnemonic: String)? {
        for length in stride(from: min(table.longestSymbol, scalars.endIndex - index), through: 1, by: -1) {
            let slice = scalars[index..<index + length]
            guard let mnemonic = table.mnemonic(for: String(String.UnicodeScalarView(slice))) else { continue }
            if length > 1, slice.last == "ɹ", Self.vowelFollows(scalars, at: index + length),
               let shorter = tableSymbol(in: scalars[..<(index + length - 1)], at: index) {
                return shorter
            }
            return (length, mnemonic)
        }
        return nil
    }

    /// Whether the next sound after `index` (past stress marks) is a vowel.
    static func vowelFollows(_ scalars: ArraySlice<Unicode.Scalar>, at index: Int) -> Bool {
        guard let next = scalars[index...].first(where: { stressMarks[$0] == nil }) else { return false }
        return vowels.contains(next)
    }

    /// Vowel letters of the IPA.
    static let vowels = Set("aeiouyɑɐɒæɛɜəɪɔʊʌɚᵻøœɘɵɤɯɨʉɞɶʏ".unicodeScalars)

    /// Checks that `mnemonics` is made only of this table's phonemes, stress
    /// marks, `|` and spaces — what `mnemonics(for:)` produces. Anything else
    /// (brackets above all, which would end espeak's phoneme input) is refused.
    public func validate(mnemonics: String) throws {
        let words = mnemonics.split(separator: " ", omittingEmptySubsequences: false)
        let valid = !words.isEmpty && words.allSatisfy { word in
            let phonemes = word.split(separator: "|", omittingEmptySubsequences: false)
            return phonemes.allSatisfy { phoneme in
                let bare = phoneme.drop { $0 == "'" || $0 == "," }
                return !bare.isEmpty && table.mnemonics.contains(String(bare))
            }
        }
        guard valid else { throw PronunciationError.invalidMnemonics(mnemonics, language: language) }
    }

    /// IPA stress marks and the mnemonics espeak uses for them.
    static let stressMarks: [Unicode.Scalar: String] = ["ˈ": "'", "ˌ": ","]

    /// For each Unicode scalar of `text`, the 1-based position of the character holding it.
    static func characterPositions(of text: String) -> [Int] {
        var positions: [Int] = []
        for (offset, character) in text.enumerated() {
            positions += Array(repeating: offset + 1, count: character.unicodeScalars.count)
        }
        return positions
    }

    /// The whole character (base and marks) that holds scalar number `scalarIndex`.
    static func character(of text: String, atScalar scalarIndex: Int) -> String {
        var seen = 0
        for character in text {
            seen += character.unicodeScalars.count
            if seen > scalarIndex { return String(character) }
        }
        return ""
    }
}

/// Collects one word's phonemes, attaching stress marks to the phoneme after them.
private struct WordBuilder {
    private var phonemes: [String] = []
    private var pendingStress: (mark: String, source: Int)?

    mutating func addStress(_ mark: String, source: Int) {
        pendingStress = (mark, source)
    }

    mutating func add(_ mnemonic: String) {
        phonemes.append((pendingStress?.mark ?? "") + mnemonic)
        pendingStress = nil
    }

    /// Appends the word to `words` (if it has phonemes) and starts a new one.
    mutating func finish(into words: inout [String], ipa: String, positions: [Int]) throws {
        if let stress = pendingStress {
            throw PronunciationError.danglingStress(position: positions[stress.source], ipa: ipa)
        }
        if !phonemes.isEmpty { words.append(phonemes.joined(separator: "|")) }
        self = WordBuilder()
    }
}

/// A left-to-right pass over normalized IPA; every scalar remembers which
/// typed scalar it came from, for error positions.
private struct Scan {
    let ipa: String
    let positions: [Int]
    let scalars: ArraySlice<Unicode.Scalar>
    private let sources: [Int]
    private(set) var index = 0

    init(ipa: String, converter: IPAConverter) {
        self.ipa = ipa
        positions = IPAConverter.characterPositions(of: ipa)
        let units = converter.normalized(ipa)
        scalars = ArraySlice(units.map(\.scalar))
        sources = units.map(\.source)
    }

    var current: (scalar: Unicode.Scalar, source: Int)? {
        index < scalars.count ? (scalars[index], sources[index]) : nil
    }

    mutating func advance(by count: Int) { index += count }
}
