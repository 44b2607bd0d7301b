import Foundation

/// Why a glossary edit, import or export could not be made, in one sentence a person can act on.
public enum GlossaryError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The source text is empty.
    case emptySource
    /// The translation is empty.
    case emptyTarget(source: String)
    /// The text holds a tab, a line break or another control character.
    case controlCharacter(field: String, position: Int)
    /// The source text starts with `#`, which starts a comment line in the file.
    case startsWithHash(String)
    /// A term must start with a letter or a digit, so it can be found in a sentence.
    case termStartsWithoutWord(String)
    /// The entry's line (kind, source, translation and two tabs) is longer than a glossary line can hold.
    case tooLong(bytes: Int)
    /// The save would make the glossary larger than `GlossaryLimits.maximumGlossaryBytes`.
    case glossaryTooLarge(path: String, bytes: Int)
    /// An export would overwrite the glossary it exports.
    case exportOntoGlossary(path: String, pair: String)
    /// The pair is translated through another language, and glossaries belong to direct pairs.
    case pivotedPair(pair: String, route: String)
    /// The entry is not in the glossary.
    case notInGlossary(source: String, kind: GlossaryEntry.Kind, pair: String)
    /// A file to import could not be read as a glossary.
    case importFailure(path: String, line: Int, reason: String)
    /// A file format Parley does not read or write.
    case unknownFormat(path: String)

    public var description: String {
        switch self {
        case .emptySource:
            return "the source text is empty; give the term or phrase to translate, then its translation"
        case let .emptyTarget(source):
            return "the translation of '\(source)' is empty; give the text Parley must use"
        case let .controlCharacter(field, position):
            return "the \(field) contains a tab, line break or other control character at position \(position); an entry is one line of text"
        case let .startsWithHash(source):
            return "'\(source)' cannot be a glossary entry: it must not start with #"
        case let .termStartsWithoutWord(source):
            return "the term '\(source)' must start with a letter or a digit (add it as a phrase with --phrase otherwise)"
        case let .tooLong(bytes):
            return "the entry would be a \(bytes)-byte line (its kind, text, translation and two tabs); a glossary line holds at most \(GlossaryDocument.maximumLineBytes) bytes, so shorten the text or its translation"
        case let .glossaryTooLarge(path, bytes):
            return "\(path) would be \(GlossaryLimits.describe(bytes)); a glossary holds at most \(GlossaryLimits.describe(GlossaryLimits.maximumGlossaryBytes)) (\(GlossaryLimits.glossaryCapacity)), so nothing was changed"
        case let .exportOntoGlossary(path, pair):
            return "\(path) is your \(pair) glossary itself; export to another file (nothing was changed)"
        case let .pivotedPair(pair, route):
            return "\(pair) has no direct Apertium pair (it is translated through \(route)), and glossaries apply only to direct pairs, so its translations use none and no glossary can be kept for it"
        case let .notInGlossary(source, kind, pair):
            return "'\(source)' is not a \(kind.rawValue) of your \(pair) glossary; `parley glossary list` shows what is"
        case let .importFailure(path, line, reason):
            return line > 0 ? "\(path):\(line): \(reason); nothing was imported" : "\(path): \(reason); nothing was imported"
        case let .unknownFormat(path):
            return "\(path): unknown glossary format; use a .csv or .tbx file (or --format csv|tbx)"
        }
    }
}
