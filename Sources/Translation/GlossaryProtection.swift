/// A sentence with its glossary terms replaced by placeholder words that
/// Apertium passes through untouched, and the way back.
///
/// The placeholder is a made-up lower-case word (`pqzxgloa`, `pqzxglob`…):
/// Apertium's English and Spanish analysers do not know it, so it comes out
/// as it went in, where the term stood, while the rest of the sentence is
/// translated as Apertium translates it. Its case carries the term's: a
/// placeholder capitalised at the start of a sentence (by the input, Apertium
/// or the clean-up) gives the target term a capital too. An unknown word at
/// the start of a sentence makes Apertium capitalise the word after it
/// ("pqzxgloa is closed" → "pqzxgloa Está cerrado"); when the source word
/// after the term was lower case, that capital is taken back.
///
/// ```swift
/// let protection = GlossaryProtection(text: "Where is the train station?", matches: matcher.terms(in: text))
/// // protection.protectedText == "Where is the pqzxgloa?"
/// protection.restore("¿Dónde es el pqzxgloa?")   // "¿Dónde es el estación de tren?"
/// ```
public struct GlossaryProtection: Sendable {
    /// The placeholders' common start; chosen so no English or Spanish word begins with it.
    static let prefixes = ["pqzxglo", "qxjvglo"]

    /// The text to give Apertium.
    public let protectedText: String
    /// The terms replaced, in order; placeholder `n` stands for `matches[n]`.
    public let matches: [GlossaryMatcher.Match]
    private let prefix: String
    /// The first match opens the sentence and the word after it is lower case.
    private let leadsLowercaseWord: Bool

    /// Replaces every match in `text` by its placeholder, in the case the matched text was written in.
    public init(text: String, matches: [GlossaryMatcher.Match]) {
        let lowered = text.lowercased()
        prefix = Self.prefixes.first { !lowered.contains($0) } ?? Self.prefixes[0]
        let usable = lowered.contains(prefix) ? [] : matches
        self.matches = usable
        var characters = Array(text)
        for (index, match) in usable.enumerated().reversed() {
            let placeholder = Self.cased(prefix + Self.letters(for: index), like: match.matched, source: match.entry.source)
            characters.replaceSubrange(match.range, with: Array(placeholder))
        }
        protectedText = String(characters)
        leadsLowercaseWord = usable.first.map { Self.leads($0.range, text: Array(text)) } ?? false
    }

    /// Whether `range` holds the first word of `text` and the next word starts with a lower-case letter.
    private static func leads(_ range: Range<Int>, text: [Character]) -> Bool {
        guard !text[..<range.lowerBound].contains(where: GlossaryMatcher.isWordCharacter) else { return false }
        return text[range.upperBound...].first(where: GlossaryMatcher.isWordCharacter)?.isLowercase ?? false
    }

    /// `translated` with each placeholder replaced by its term's target (and a
    /// mark such as `*` before it removed); also says which entries were found.
    public func restore(_ translated: String) -> (text: String, applied: [GlossaryEntry]) {
        guard !matches.isEmpty else { return (translated, []) }
        let characters = Array(translated)
        let lowered = characters.map { Character($0.lowercased()) }
        let prefixCharacters = Array(prefix)
        var output = "", applied: [Int] = [], index = 0, lowersNextWord = false
        while index < characters.count {
            if let (number, end) = placeholder(in: lowered, at: index, prefix: prefixCharacters), number < matches.count {
                if let last = output.last, "*@#".contains(last) { output.removeLast() }
                lowersNextWord = number == 0 && leadsLowercaseWord && !output.contains(where: GlossaryMatcher.isWordCharacter)
                output += Self.cased(matches[number].entry.target, asPlaceholder: String(characters[index..<end]))
                if !applied.contains(number) { applied.append(number) }
                index = end
            } else {
                let character = characters[index]
                if lowersNextWord, GlossaryMatcher.isWordCharacter(character) {
                    output += character.lowercased()
                    lowersNextWord = false
                } else {
                    output.append(character)
                }
                index += 1
            }
        }
        return (output, applied.map { matches[$0].entry })
    }

    /// Whether `word` (with or without its Apertium mark) is one of this sentence's placeholders.
    public func isPlaceholder(_ word: String) -> Bool {
        word.lowercased().drop { "*@#".contains($0) }.hasPrefix(prefix)
    }

    /// The placeholder number and its end at `start`, when a whole placeholder word begins there.
    private func placeholder(in text: [Character], at start: Int, prefix: [Character]) -> (Int, Int)? {
        guard start == 0 || !GlossaryMatcher.isWordCharacter(text[start - 1]),
              start + prefix.count < text.count, Array(text[start..<start + prefix.count]) == prefix else { return nil }
        var end = start + prefix.count
        while end < text.count, GlossaryMatcher.isWordCharacter(text[end]) { end += 1 }
        return Self.number(of: String(text[start + prefix.count..<end])).map { ($0, end) }
    }

    /// Base-26 letters for `number`: 0 → `a`, 25 → `z`, 26 → `ba`.
    static func letters(for number: Int) -> String {
        var number = number, letters = ""
        repeat {
            letters = String(UnicodeScalar(UInt8(97 + number % 26))) + letters
            number /= 26
        } while number > 0
        return letters
    }

    /// The number `letters(for:)` wrote, or nil for anything else.
    static func number(of letters: String) -> Int? {
        guard !letters.isEmpty, letters.utf8.allSatisfy({ (97...122).contains($0) }) else { return nil }
        return letters.utf8.reduce(0) { $0 * 26 + Int($1 - 97) }
    }

    /// The placeholder written in the case of `matched`: upper case when the
    /// matched text is all capitals, a capital first letter when it has one
    /// that the glossary's source does not.
    static func cased(_ placeholder: String, like matched: String, source: String) -> String {
        let letters = matched.filter(\.isLetter)
        if letters.count > 1, letters.allSatisfy(\.isUppercase), !source.filter(\.isLetter).allSatisfy(\.isUppercase) {
            return placeholder.uppercased()
        }
        if let first = letters.first, first.isUppercase, !(source.first(where: \.isLetter)?.isUppercase ?? false) {
            return placeholder.prefix(1).uppercased() + placeholder.dropFirst()
        }
        return placeholder
    }

    /// The target term in the case its placeholder came back in.
    static func cased(_ target: String, asPlaceholder placeholder: String) -> String {
        let letters = placeholder.filter(\.isLetter)
        if letters.count > 1, letters.allSatisfy(\.isUppercase) { return target.uppercased() }
        guard placeholder.first?.isUppercase == true, let index = target.firstIndex(where: \.isLetter) else { return target }
        return target.replacingCharacters(in: index...index, with: target[index].uppercased())
    }
}
