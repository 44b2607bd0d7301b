import Foundation

/// One line of a translation glossary: a term Apertium must translate a fixed
/// way, or a whole phrase whose translation bypasses Apertium (the phrasebook).
///
/// ```swift
/// let term = GlossaryEntry(kind: .term, source: "train station", target: "estación de tren")
/// let phrase = GlossaryEntry(kind: .phrase, source: "Please speak more slowly.", target: "Por favor, hable más despacio.")
/// ```
public struct GlossaryEntry: Sendable, Hashable, Codable, CustomStringConvertible {
    /// What the entry replaces.
    public enum Kind: String, Sendable, Hashable, Codable, CaseIterable {
        /// Wherever the words appear in a sentence, they are translated as `target`.
        case term
        /// When the whole sentence is `source` (ignoring case, spacing and end punctuation), the translation is `target`.
        case phrase
    }

    /// A term or a phrase.
    public var kind: Kind
    /// The source-language text, as the person wrote it.
    public var source: String
    /// The translation to use, exactly as the person wrote it.
    public var target: String

    /// Creates an entry.
    public init(kind: Kind, source: String, target: String) {
        self.kind = kind
        self.source = source
        self.target = target
    }

    /// The lookup key: a term's words lower-cased with single spaces; a phrase's the same,
    /// without opening `¿ ¡` and closing `. ! ? …`.
    public var key: String { Self.key(for: source, kind: kind) }

    /// `source → target`, as reports show it.
    public var description: String { "\(source) → \(target)" }

    /// The lookup key of `text` for an entry of `kind`.
    public static func key(for text: String, kind: Kind) -> String {
        let words = text.lowercased().split(whereSeparator: \.isWhitespace).joined(separator: " ")
        guard kind == .phrase else { return words }
        let edges = CharacterSet(charactersIn: "¿¡.!?…").union(.whitespaces)
        return words.trimmingCharacters(in: edges)
    }
}
