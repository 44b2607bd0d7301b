/// Apertium's plain-text stream format, written and read exactly as the
/// `apertium` command's own `txt` format filters do it.
///
/// `apertium -u DIRECTION` wraps the pipeline in `apertium-destxt` and
/// `apertium-retxt`. Those filters cannot stay open between sentences (they
/// know nothing of null flushes), so Parley does their job itself and the
/// persistent pipeline sees the same bytes the command would send:
///
/// - the characters `[ ] \ ^ $ / @ < > { }` are escaped with a backslash;
/// - a single space stays a space; any other run of blanks (spaces, tabs,
///   newlines, carriage returns) becomes a superblank `[…]`;
/// - at the end of the text, and before a paragraph break (an empty line),
///   a period and an empty superblank `.[]` mark a possible sentence end,
///   which the output side removes again.
///
/// A request ends with the blank that `destxt` puts after the last line, a
/// numbered superblank `[parley-N]`, and a NUL byte — the flush every stage of
/// a `-z` pipeline answers with its own NUL. Superblanks pass through every
/// stage untouched, so the answer must end with the same number: a stage that
/// dies makes the next ones flush an empty answer at end of input, and the
/// number tells that answer apart from the translation of the sentence.
enum ApertiumStreamFormat {
    /// The byte that ends a request and its answer.
    static let flush: UInt8 = 0

    /// Characters that carry meaning in the stream and must be escaped in text.
    static let reservedCharacters: Set<Unicode.Scalar> = ["[", "]", "\\", "^", "$", "/", "@", "<", ">", "{", "}"]

    /// Characters `destxt` treats as blanks.
    static let blankCharacters: Set<Unicode.Scalar> = [" ", "\n", "\t", "\r"]

    /// The superblank that numbers request `frame`.
    static func frameMark(_ frame: Int) -> String { "[parley-\(frame)]" }

    /// The request for `text`: what `printf '%s\n' TEXT | apertium-destxt` prints, the frame mark, the flush byte.
    static func encode(_ text: String, frame: Int) -> [UInt8] {
        let scalars = Array((text + "\n").unicodeScalars)
        var stream = String.UnicodeScalarView()
        var index = 0
        while index < scalars.count {
            guard blankCharacters.contains(scalars[index]) else {
                if reservedCharacters.contains(scalars[index]) { stream.append("\\") }
                stream.append(scalars[index])
                index += 1
                continue
            }
            let end = scalars[index...].firstIndex { !blankCharacters.contains($0) } ?? scalars.count
            appendBlank(scalars[index..<end], endsText: end == scalars.count, to: &stream)
            index = end
        }
        return Array((String(stream) + frameMark(frame)).utf8) + [flush]
    }

    /// The text of answer `frame` (without its flush byte); nil when the answer is not that frame's.
    static func decode(_ bytes: [UInt8], frame: Int) -> String? {
        let mark = Array(frameMark(frame).utf8)
        guard bytes.count >= mark.count, bytes.suffix(mark.count).elementsEqual(mark) else { return nil }
        return decode(bytes.dropLast(mark.count))
    }

    /// The text of an answer (without its flush byte): what `apertium-retxt` prints for it.
    static func decode(_ bytes: some Collection<UInt8>) -> String {
        let scalars = Array(String(decoding: bytes, as: UTF8.self).unicodeScalars)
        var text = String.UnicodeScalarView()
        var index = 0
        while index < scalars.count {
            switch scalars[index] {
            case "\\" where index + 1 < scalars.count:
                text.append(scalars[index + 1])
                index += 2
            case "." where startsEmptySuperblank(scalars, at: index + 1):
                index += 3  // the possible-sentence-end marker added on the way in
            case "[":
                index = appendSuperblank(scalars, from: index, to: &text)
            default:
                text.append(scalars[index])
                index += 1
            }
        }
        return String(text)
    }

    /// Writes one run of blanks the way `destxt` does.
    private static func appendBlank(_ run: ArraySlice<Unicode.Scalar>, endsText: Bool,
                                    to stream: inout String.UnicodeScalarView) {
        let blank = String(String.UnicodeScalarView(run))
        if endsText || blank.contains("\n\n") || blank.contains("\r\n\r\n") {
            stream.append(contentsOf: ".[]".unicodeScalars)
        } else if blank == " " {
            stream.append(" ")
            return
        }
        stream.append("[")
        stream.append(contentsOf: run)
        stream.append("]")
    }

    private static func startsEmptySuperblank(_ scalars: [Unicode.Scalar], at index: Int) -> Bool {
        index + 1 < scalars.count && scalars[index] == "[" && scalars[index + 1] == "]"
    }

    /// Copies a superblank's content (unescaped) and returns the index after its closing bracket.
    private static func appendSuperblank(_ scalars: [Unicode.Scalar], from start: Int,
                                         to text: inout String.UnicodeScalarView) -> Int {
        var index = start + 1
        while index < scalars.count, scalars[index] != "]" {
            if scalars[index] == "\\", index + 1 < scalars.count { index += 1 }
            text.append(scalars[index])
            index += 1
        }
        return index + 1
    }
}
