public import Locales
import Foundation

/// The CMU pronouncing dictionary (ARPAbet), as shipped with the en-US speech model.
///
/// Lines are `word PH ON EMES`, with `word(2)` for further variants; vowels
/// carry a stress digit (0 none, 1 primary, 2 secondary).
public struct CMUDictionary: Sendable {
    /// Where Debian's `pocketsphinx-en-us` puts it.
    public static let defaultPath = "/usr/share/pocketsphinx/model/en-us/cmudict-en-us.dict"

    /// Words in file order, each with its first pronunciation.
    public let words: [String]
    /// The file it was read from, for messages.
    public let path: String
    /// Word → ARPAbet phones of its first pronunciation.
    private let phonesByWord: [String: [String]]
    /// Word → the 1-based line of that pronunciation.
    private let lineByWord: [String: Int]

    /// Parses the dictionary's text; variants after the first are ignored.
    public init(parsing text: String, path: String = defaultPath) {
        var words: [String] = []
        var phones: [String: [String]] = [:], lines: [String: Int] = [:]
        for (index, line) in DataFile.lines(of: text).enumerated() {
            let fields = line.split(whereSeparator: \.isWhitespace).map(String.init)
            guard fields.count > 1, !fields[0].hasSuffix(")"), phones[fields[0]] == nil else { continue }
            words.append(fields[0])
            phones[fields[0]] = Array(fields.dropFirst())
            lines[fields[0]] = index + 1
        }
        self.words = words
        self.path = path
        phonesByWord = phones
        lineByWord = lines
    }

    /// Reads the dictionary at `path`; a line over `LineLengthLimit.maximumBytes` is refused.
    public static func load(path: String = defaultPath) throws -> CMUDictionary {
        let text = try DataFile.read(path)
        try LineLengthLimit.check(text, path: path)
        return CMUDictionary(parsing: text, path: path)
    }

    /// The line of `word`'s first pronunciation.
    public func line(of word: String) -> Int? { lineByWord[word.lowercased()] }

    /// The ARPAbet phones of `word`'s first pronunciation.
    public func phones(of word: String) -> [String]? { phonesByWord[word.lowercased()] }

    /// Words made only of the letters a-z, in file order: clean input for tables and tests.
    public var plainWords: [String] {
        words.filter { word in word.unicodeScalars.allSatisfy { ("a"..."z").contains($0) } }
    }
}

/// ARPAbet phones → IPA in the symbols eSpeak NG writes for English, from
/// `arpabet-ipa.tsv` (phone, IPA, IPA when unstressed or without a stress digit).
public struct ARPAbetTable: Sendable {
    private let stressed: [String: String]
    private let unstressed: [String: String]

    /// The data file's name.
    public static let fileName = "arpabet-ipa.tsv"

    /// Parses the table's text; `path` names it in errors.
    public init(parsing text: String, path: String) throws {
        var stressed: [String: String] = [:], unstressed: [String: String] = [:]
        for row in try DataFile.rows(of: text, path: path) {
            guard (2...3).contains(row.fields.count) else {
                throw DataFileError(path: path, line: row.line, message: "expected an ARPAbet phone, its IPA and optionally its unstressed IPA")
            }
            stressed[row.fields[0]] = row.fields[1]
            unstressed[row.fields[0]] = row.fields.count == 3 ? row.fields[2] : row.fields[1]
        }
        self.stressed = stressed
        self.unstressed = unstressed
    }

    /// Loads the shipped table.
    public static func load(from directories: DataDirectories) throws -> ARPAbetTable {
        let path = (directories.shipped as NSString).appendingPathComponent(fileName)
        return try ARPAbetTable(parsing: DataFile.read(path), path: path)
    }

    /// ARPAbet's vowels.
    static let vowels: Set<String> = ["AA", "AE", "AH", "AO", "AW", "AY", "EH", "ER", "EY", "IH", "IY", "OW", "OY", "UH", "UW"]

    /// The IPA for a pronunciation: stress 1 puts `ˈ` and stress 2 `ˌ` before the vowel.
    /// Without stress digits (the en-US model's copy has none), the vowel of a
    /// one-vowel word is taken as stressed.
    public func ipa(for phones: [String]) throws -> String {
        let hasDigits = phones.contains { $0.last?.isNumber == true }
        let monosyllable = !hasDigits && phones.filter { Self.vowels.contains($0) }.count == 1
        return try phones.map { phone in
            var stress = phone.last.flatMap { $0.wholeNumberValue }
            let base = stress == nil ? phone : String(phone.dropLast())
            if monosyllable, Self.vowels.contains(base) { stress = 1 }
            guard let symbol = (stress == 1 || stress == 2 ? stressed : unstressed)[base] else {
                throw UnknownPhone(phone: phone, pronunciation: phones.joined(separator: " "))
            }
            return (stress == 1 ? "ˈ" : stress == 2 ? "ˌ" : "") + symbol
        }.joined()
    }
}

/// A phone the ARPAbet table does not have; `CMUImport` says which word and line it came from.
struct UnknownPhone: Error, CustomStringConvertible {
    var phone: String
    var pronunciation: String
    var description: String { "unknown ARPAbet phone '\(phone)' in '\(pronunciation)'" }
}
