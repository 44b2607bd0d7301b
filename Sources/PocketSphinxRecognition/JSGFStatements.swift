import Foundation

/// The statement structure of a JSGF grammar, checked before PocketSphinx sees it.
///
/// PocketSphinx's JSGF scanner copies any text it finds between statements to
/// standard output and then accepts the grammar, so a file with a valid header
/// followed by anything (`/etc/passwd` after a rule) would be echoed. Every
/// statement must be the header, `grammar`, `import` or a rule (`public <name> = …;`
/// or `<name> = …;`), each ended by `;`; comments, quoted tokens and tags may hold anything.
enum JSGFStatements {
    /// The first text that is not part of a statement, shortened, or nil when there is none.
    static func strayText(in grammar: String) -> String? {
        for statement in statements(of: grammar) {
            let text = statement.trimmingCharacters(in: .whitespacesAndNewlines)
            guard !text.isEmpty else { continue }
            if !["#JSGF", "grammar", "import", "public", "<"].contains(where: { text.hasPrefix($0) }) {
                return String(text.prefix(40)).split(whereSeparator: \.isNewline).joined(separator: " ")
            }
        }
        return nil
    }

    /// The text between semicolons outside comments, quotes and tags; comments are left out.
    /// The last element is what follows the last semicolon.
    private static func statements(of grammar: String) -> [String] {
        var statements: [String] = [], current = ""
        var characters = Array(grammar.unicodeScalars)[...]
        while let scalar = characters.popFirst() {
            switch scalar {
            case "/" where characters.first == "*":
                characters = skip(past: "*/", in: characters.dropFirst())
            case "/" where characters.first == "/":
                characters = skip(past: "\n", in: characters)
            case "\"", "{":
                current.unicodeScalars.append(scalar)
                let close: Unicode.Scalar = scalar == "\"" ? "\"" : "}"
                while let next = characters.popFirst() {
                    current.unicodeScalars.append(next)
                    if next == "\\", let escaped = characters.popFirst() { current.unicodeScalars.append(escaped) }
                    else if next == close { break }
                }
            case ";":
                statements.append(current)
                current = ""
            default:
                current.unicodeScalars.append(scalar)
            }
        }
        return statements + [current]
    }

    /// What follows the first `end` in `scalars` (nothing when it never comes).
    private static func skip(past end: String, in scalars: ArraySlice<Unicode.Scalar>) -> ArraySlice<Unicode.Scalar> {
        let marker = Array(end.unicodeScalars)
        var rest = scalars
        while !rest.isEmpty {
            if rest.starts(with: marker) { return rest.dropFirst(marker.count) }
            rest = rest.dropFirst()
        }
        return rest
    }
}
