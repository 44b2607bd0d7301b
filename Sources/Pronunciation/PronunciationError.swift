/// Why a pronunciation could not be used or an edit could not be made, in words a person can act on.
public enum PronunciationError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The IPA text was empty.
    case emptyPronunciation(word: String)
    /// The word or phrase was empty.
    case emptyWord
    /// The word holds a tab, a line break or another control character; `position` counts Unicode scalars from 1.
    case controlCharacterInWord(scalar: UInt32, position: Int)
    /// The pronunciation holds a tab, a line break or another control character.
    case controlCharacterInPronunciation(word: String, scalar: UInt32, position: Int)
    /// The word cannot be written in a dictionary file.
    case unwritableWord(String)
    /// A symbol has no eSpeak NG equivalent in the language's table; `position` counts characters from 1.
    case unknownSymbol(symbol: String, position: Int, ipa: String, language: String)
    /// A stress mark with no sound after it in its word.
    case danglingStress(position: Int, ipa: String)
    /// A phoneme string that is not made only of the table's mnemonics (never sent to espeak).
    case invalidMnemonics(String, language: String)
    /// No IPA table exists for the language.
    case noSymbolTable(language: String, path: String)
    /// The word has no entry in the person's dictionary.
    case notInDictionary(word: String, language: String)
    /// eSpeak NG has no voice for the language.
    case noVoice(language: String)
    /// A file could not be read, written or locked.
    case fileFailure(path: String, reason: String)
    /// A PLS or CMU file could not be imported.
    case importFailure(path: String, reason: String)
    /// A line of a line-based file is longer than `LineLengthLimit.maximumBytes`.
    case overlongLine(path: String, line: Int, bytes: Int)

    public var description: String {
        switch self {
        case let .emptyPronunciation(word):
            return "the pronunciation of '\(word)' is empty; give it in IPA, e.g. təˈmɑːtəʊ"
        case .emptyWord:
            return "the word is empty; give the word or phrase before its pronunciation"
        case let .controlCharacterInWord(scalar, position):
            return "the word contains a control character (\(Self.describe(scalar, at: position))); a word is one line of text"
        case let .controlCharacterInPronunciation(word, scalar, position):
            return "the pronunciation of '\(word)' contains a control character (\(Self.describe(scalar, at: position))); "
                + "a pronunciation is one line of IPA"
        case let .unwritableWord(word):
            return "'\(word)' cannot be a dictionary word: it must not start with #"
        case let .unknownSymbol(symbol, position, ipa, language):
            return "'\(symbol)' at position \(position) of '\(ipa)' has no eSpeak NG equivalent in the \(language) table; "
                + "use one of the symbols `parley dict symbols \(language)` lists"
        case let .danglingStress(position, ipa):
            return "the stress mark at position \(position) of '\(ipa)' has no sound after it; put it before a syllable"
        case let .invalidMnemonics(phonemes, language):
            return "'\(phonemes)' is not made of eSpeak NG phonemes of the \(language) table; re-enter the word in IPA"
        case let .noSymbolTable(language, path):
            return "no IPA table for '\(language)' (looked for \(path)); regenerate it with `parley dict build-tables \(language)`"
        case let .notInDictionary(word, language):
            return "'\(word)' is not in your \(language) dictionary; `parley dict list \(language)` shows what is"
        case let .noVoice(language):
            return "no eSpeak NG voice speaks '\(language)'; `parley languages` lists what can be spoken"
        case let .fileFailure(path, reason):
            return "\(path): \(reason)"
        case let .importFailure(path, reason):
            return "cannot import \(path): \(reason)"
        case let .overlongLine(path, line, bytes):
            return "line \(line) of \(path) is \(bytes) bytes long; a line holds at most \(LineLengthLimit.maximumBytes) bytes"
        }
    }

    /// `U+000A, a line feed, at position 3`: a control character named without printing it.
    private static func describe(_ scalar: UInt32, at position: Int) -> String {
        let code = "U+" + String(repeating: "0", count: max(0, 4 - String(scalar, radix: 16).count)) + String(scalar, radix: 16, uppercase: true)
        let names: [UInt32: String] = [0x09: "a tab", 0x0A: "a line feed", 0x0D: "a carriage return"]
        return names[scalar].map { "\(code), \($0), at position \(position)" } ?? "\(code) at position \(position)"
    }
}
