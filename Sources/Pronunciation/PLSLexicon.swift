public import Foundation
import Locales
#if canImport(FoundationXML)
import FoundationXML
#endif

/// W3C Pronunciation Lexicon Specification 1.0 files with `alphabet="ipa"`.
///
///     <lexicon version="1.0" xmlns="http://www.w3.org/2005/01/pronunciation-lexicon"
///              alphabet="ipa" xml:lang="en">
///       <lexeme><grapheme>tomato</grapheme><phoneme>təˈmɑːtəʊ</phoneme></lexeme>
///     </lexicon>
public enum PLSLexicon {
    /// The PLS namespace.
    static let namespace = "http://www.w3.org/2005/01/pronunciation-lexicon"

    /// The document for `entries`, one lexeme each.
    public static func export(_ entries: [DictionaryEntry], language: String) -> String {
        var xml = """
            <?xml version="1.0" encoding="UTF-8"?>
            <lexicon version="1.0" xmlns="\(namespace)" alphabet="ipa" xml:lang="\(escape(language))">

            """
        for entry in entries {
            xml += "  <lexeme>\n    <grapheme>\(escape(entry.word))</grapheme>\n"
            xml += "    <phoneme>\(escape(entry.ipa))</phoneme>\n  </lexeme>\n"
        }
        return xml + "</lexicon>\n"
    }

    /// The entries of a PLS document: every grapheme of a lexeme with its first IPA phoneme.
    public static func entries(parsing data: Data, path: String) throws -> [DictionaryEntry] {
        guard !data.isEmpty else { throw PronunciationError.importFailure(path: path, reason: "the file is empty") }
        return try entries(XMLParser(data: data), path: path)
    }

    /// The entries of the PLS file at `path`, parsed as it is read, so a file of any
    /// size export writes imports (given whole, libxml2 refuses documents over 10 MB).
    public static func entries(readingFile path: String) throws -> [DictionaryEntry] {
        let size: Int64
        do {
            size = try DataFile.regularFileSize(path)
        } catch let error as DataFileError {
            throw PronunciationError.importFailure(path: path, reason: "the file \(error.message)")
        }
        guard size > 0 else { throw PronunciationError.importFailure(path: path, reason: "the file is empty") }
        guard let stream = InputStream(fileAtPath: path) else {
            throw PronunciationError.importFailure(path: path, reason: "the file cannot be opened")
        }
        return try entries(XMLParser(stream: stream), path: path)
    }

    /// Runs `parser` over a PLS document; a document cut short or without lexemes is an error.
    private static func entries(_ parser: XMLParser, path: String) throws -> [DictionaryEntry] {
        let reader = PLSReader()
        parser.delegate = reader
        let parsed = parser.parse()
        if let failure = reader.failure { throw PronunciationError.importFailure(path: path, reason: failure) }
        if reader.openedLexicon, !reader.closedLexicon {
            throw PronunciationError.importFailure(path: path,
                reason: "the file ends before </lexicon> (at line \(parser.lineNumber)); it may be cut off")
        }
        guard parsed else {
            let reason = parser.parserError.map { "not well-formed XML (\($0.localizedDescription)) at line \(parser.lineNumber)" }
            throw PronunciationError.importFailure(path: path, reason: reason ?? "not well-formed XML")
        }
        guard reader.openedLexicon else {
            throw PronunciationError.importFailure(path: path, reason: "the file has no <lexicon>; it is not a PLS lexicon")
        }
        guard !reader.entries.isEmpty else {
            throw PronunciationError.importFailure(path: path, reason: "the lexicon has no <lexeme> with a grapheme and a phoneme")
        }
        return reader.entries
    }

    /// Text with the five XML special characters escaped.
    static func escape(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
            .replacingOccurrences(of: "'", with: "&apos;")
    }
}

/// Collects lexemes while `XMLParser` reads a PLS document.
private final class PLSReader: NSObject, XMLParserDelegate {
    var entries: [DictionaryEntry] = []
    var failure: String?
    /// Whether `<lexicon>` began and ended: a file cut short never ends it.
    var openedLexicon = false
    var closedLexicon = false
    private var graphemes: [String] = []
    private var phonemes: [String] = []
    private var text = ""
    private var lexiconAlphabet = "ipa"
    private var phonemeAlphabet: String?

    func parser(_ parser: XMLParser, didStartElement element: String, namespaceURI: String?,
                qualifiedName: String?, attributes: [String: String] = [:]) {
        text = ""
        switch element {
        case "lexicon":
            openedLexicon = true
            lexiconAlphabet = attributes["alphabet"] ?? ""
        case "lexeme":
            graphemes = []
            phonemes = []
        case "phoneme":
            phonemeAlphabet = attributes["alphabet"]
        default:
            break
        }
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) { text += string }

    func parser(_ parser: XMLParser, didEndElement element: String, namespaceURI: String?, qualifiedName: String?) {
        let value = text.trimmingCharacters(in: .whitespacesAndNewlines)
        switch element {
        case "grapheme":
            graphemes.append(value)
        case "phoneme":
            let alphabet = phonemeAlphabet ?? lexiconAlphabet
            guard alphabet.lowercased() == "ipa" else {
                fail(parser, "line \(parser.lineNumber) uses alphabet '\(alphabet)'; only alphabet=\"ipa\" can be imported")
                return
            }
            phonemes.append(value)
        case "lexicon":
            closedLexicon = true
        case "lexeme":
            if let phoneme = phonemes.first {
                entries += graphemes.map { DictionaryEntry(word: $0, ipa: phoneme) }
            }
        default:
            break
        }
        text = ""
    }

    private func fail(_ parser: XMLParser, _ message: String) {
        if failure == nil { failure = message }
        parser.abortParsing()
    }
}
