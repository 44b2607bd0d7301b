/// The longest line Parley reads from a line-based file: dictionaries, the CMU
/// dictionary and the word lists imported from it, phrase lists. A longer line is
/// no entry anyone wrote by hand, and handling it would cost seconds on every read.
public enum LineLengthLimit {
    /// Bytes of UTF-8 in the longest line read, without its line ending.
    public static let maximumBytes = DictionaryDocument.maximumLineBytes

    /// The first line of `text` longer than `maximumBytes`: its 1-based number and length in bytes.
    public static func firstOverlongLine(in text: String) -> (line: Int, bytes: Int)? {
        var line = 1, bytes = 0, overlong = false
        for byte in text.utf8 {
            if byte == UInt8(ascii: "\n") {
                if overlong { return (line, bytes) }
                line += 1
                bytes = 0
            } else if byte != UInt8(ascii: "\r") {  // a CRLF line ending is no part of the line
                bytes += 1
                overlong = overlong || bytes > maximumBytes
            }
        }
        return overlong ? (line, bytes) : nil
    }

    /// Throws `overlongLine` naming `path` when `text` has a line over the limit.
    public static func check(_ text: String, path: String) throws {
        if let (line, bytes) = firstOverlongLine(in: text) {
            throw PronunciationError.overlongLine(path: path, line: line, bytes: bytes)
        }
    }
}
