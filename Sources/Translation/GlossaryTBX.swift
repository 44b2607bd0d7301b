public import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif

/// Glossaries as TBX (ISO 30042, the TermBase eXchange format): one
/// `termEntry` per entry with a `langSet` for each language; a phrase's source
/// term carries `<termNote type="termType">phraseologicalUnit</termNote>`.
/// Import also reads TBX 3's `conceptEntry`/`langSec`/`termSec`.
public enum GlossaryTBX {
    /// The termType that marks a phrasebook entry.
    static let phraseType = "phraseologicalUnit"

    /// The entries as a TBX document, source language `source`, target `target`.
    public static func export(_ entries: [GlossaryEntry], from source: String, to target: String) -> String {
        var lines = ["<?xml version=\"1.0\" encoding=\"UTF-8\"?>", "<martif type=\"TBX\" xml:lang=\"\(source)\">",
                     "  <martifHeader><fileDesc><sourceDesc><p>Parley glossary \(source) to \(target)</p></sourceDesc></fileDesc></martifHeader>",
                     "  <text>", "    <body>"]
        for (index, entry) in entries.enumerated() {
            let note = entry.kind == .phrase ? "<termNote type=\"termType\">\(phraseType)</termNote>" : ""
            lines.append("      <termEntry id=\"e\(index + 1)\">")
            lines.append("        <langSet xml:lang=\"\(source)\"><tig><term>\(escaped(entry.source))</term>\(note)</tig></langSet>")
            lines.append("        <langSet xml:lang=\"\(target)\"><tig><term>\(escaped(entry.target))</term></tig></langSet>")
            lines.append("      </termEntry>")
        }
        return (lines + ["    </body>", "  </text>", "</martif>"]).joined(separator: "\n") + "\n"
    }

    /// The entries of a TBX document for the pair `source` → `target` (languages
    /// compared by their first subtag); an entry without both languages, XML that
    /// does not parse, or an entity declared in the document type (which the parser
    /// would drop from the terms using it) is an error naming the line.
    public static func entries(parsing data: Data, path: String, from source: String, to target: String) throws -> [GlossaryEntry] {
        if let (name, line) = declaredEntity(in: data) {
            throw GlossaryError.importFailure(path: path, line: line, reason: entityRefusal(name))
        }
        let reader = TBXReader(source: source, target: target, path: path)
        let parser = XMLParser(data: data)
        parser.delegate = reader
        parser.shouldResolveExternalEntities = false
        if !parser.parse() {
            if let failure = reader.failure { throw failure }
            throw GlossaryError.importFailure(path: path, line: parser.lineNumber,
                                              reason: "not well-formed XML (\(parser.parserError.map { ($0 as NSError).code }.map { "error \($0)" } ?? "unknown error"))")
        }
        if let failure = reader.failure { throw failure }
        if let open = reader.openElements.last {
            throw GlossaryError.importFailure(path: path, line: parser.lineNumber,
                                              reason: "not well-formed XML (the file ends inside <\(open)>)")
        }
        guard reader.sawRoot else { throw GlossaryError.importFailure(path: path, line: 0, reason: "not a TBX document (no martif or tbx element)") }
        return reader.entries
    }

    /// Why a declared entity is refused.
    static func entityRefusal(_ name: String) -> String {
        "the entity '\(name)' is declared in the document type; Parley does not expand entities, so write its text in the terms instead"
    }

    /// The first entity declared in the document type (`<!ENTITY co "company">`) and its line.
    /// The XML parser would drop a declared entity from the text that uses it without a
    /// word, so the prolog, everything before the root element, is read for declarations first.
    static func declaredEntity(in data: Data) -> (name: String, line: Int)? {
        let bytes = [UInt8](data), declaration = Array("<!ENTITY".utf8)
        var line = 1, index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\n") { line += 1 }
            if byte == UInt8(ascii: "<"), index + 1 < bytes.count, isNameStart(bytes[index + 1]) { return nil }
            for (open, close) in [("<!--", "-->"), ("<?", "?>")] where bytes[index...].starts(with: open.utf8) {
                // A comment or processing instruction may hold anything; step over it, counting its lines.
                let end = bytes.indices[(index + 2)...].first { bytes[$0...].starts(with: close.utf8) } ?? bytes.count
                line += bytes[index..<end].count(where: { $0 == UInt8(ascii: "\n") })
                index = end
            }
            if bytes[index...].starts(with: declaration) {
                let rest = bytes[(index + declaration.count)...].drop { $0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D || $0 == UInt8(ascii: "%") }
                let name = rest.prefix { $0 != 0x20 && $0 != 0x09 && $0 != 0x0A && $0 != 0x0D && $0 != UInt8(ascii: ">") && $0 != UInt8(ascii: "\"") }
                return (String(decoding: name, as: UTF8.self), line)
            }
            index += 1
        }
        return nil
    }

    /// Whether `byte` can start an element name (an ASCII letter, `_`, `:` or the start of a non-ASCII character).
    private static func isNameStart(_ byte: UInt8) -> Bool {
        (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A) || byte == UInt8(ascii: "_") || byte == UInt8(ascii: ":") || byte >= 0x80
    }

    private static func escaped(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
    }
}

/// The XMLParser delegate that collects term entries.
private final class TBXReader: NSObject, XMLParserDelegate {
    let source: String, target: String, path: String
    var entries: [GlossaryEntry] = []
    var failure: GlossaryError?
    var sawRoot = false
    /// The elements opened and not yet closed, outermost first.
    var openElements: [String] = []
    private var terms: [String: String] = [:]
    private var isPhrase = false
    private var language: String?
    private var entryLine = 0
    private var text: String?
    private var noteType: String?

    init(source: String, target: String, path: String) {
        self.source = source
        self.target = target
        self.path = path
    }

    func parser(_ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
                attributes: [String: String] = [:]) {
        openElements.append(name)
        switch name {
        case "martif", "tbx": sawRoot = true
        case "termEntry", "conceptEntry": terms = [:]; isPhrase = false; entryLine = parser.lineNumber
        case "langSet", "langSec": language = (attributes["xml:lang"] ?? attributes["lang"]).map(Self.primary)
        case "term": text = ""
        case "termNote": if attributes["type"] == "termType" { noteType = ""; text = "" }
        default: break
        }
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) {
        text? += string
    }

    /// CDATA is text like any other: `<term><![CDATA[R&D]]></term>` is the term "R&D".
    func parser(_ parser: XMLParser, foundCDATA block: Data) {
        guard text != nil else { return }
        guard let string = String(validating: block, as: UTF8.self) else { return fail(parser, "a CDATA section is not UTF-8 text") }
        text? += string
    }

    func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
        if !openElements.isEmpty { openElements.removeLast() }
        switch name {
        case "term":
            if let language, terms[language] == nil { terms[language] = text }
            text = nil
        case "termNote":
            if noteType != nil, language == source, text?.trimmingCharacters(in: .whitespaces) == GlossaryTBX.phraseType { isPhrase = true }
            noteType = nil
            text = nil
        case "langSet", "langSec": language = nil
        case "termEntry", "conceptEntry": finishEntry(parser)
        default: break
        }
    }

    private func finishEntry(_ parser: XMLParser) {
        guard failure == nil else { return }
        guard let sourceText = terms[source], let targetText = terms[target] else {
            fail(parser, "the entry has no \(terms[source] == nil ? source : target) term")
            return
        }
        do {
            entries.append(try GlossaryEntry.checked(kind: isPhrase ? .phrase : .term, source: sourceText, target: targetText))
        } catch {
            fail(parser, String(describing: error))
        }
    }

    private func fail(_ parser: XMLParser, _ reason: String) {
        guard failure == nil else { return }
        failure = GlossaryError.importFailure(path: path, line: entryLine, reason: reason)
        parser.abortParsing()
    }

    private static func primary(_ tag: String) -> String {
        String(tag.lowercased().split(whereSeparator: { $0 == "-" || $0 == "_" }).first ?? "")
    }
}
