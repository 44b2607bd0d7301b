/// Splits a command's arguments at spaces, keeping words in double or single
/// quotes together, so `:glossary add en es "train station" "estación de tren"`
/// gives four arguments after `add`. A quote opens only at the start of a word
/// (an apostrophe inside one, as in "don't", is a letter).
enum QuotedWords {
    /// The words of `text`; a quote left open is an error.
    static func split(_ text: String) throws -> [String] {
        var words: [String] = [], word = "", quote: Character?, started = false
        for character in text {
            if let open = quote {
                if character == open { quote = nil } else { word.append(character) }
            } else if character == "\"" || character == "'", !started {
                quote = character
                started = true
            } else if character == " " || character == "\t" {
                if started { words.append(word) }
                word = ""
                started = false
            } else {
                word.append(character)
                started = true
            }
        }
        guard quote == nil else { throw CommandError("a quote is not closed; put quotes around each phrase") }
        if started { words.append(word) }
        return words
    }
}
