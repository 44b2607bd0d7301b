import Foundation
import Locales
import Testing
@testable import Translation

/// The glossary file, its matcher and its interchange formats, without Apertium.
@Suite struct GlossaryDocumentTests {
    @Test func aMalformedLineIsNamedByNumberAndTheRestLoads() {
        let text = "# mine\nterm\ttrain station\testación de tren\nterm\tno target\nphrase\tGood night\tBuenas noches\nnoun\tx\ty\n"
        let document = GlossaryDocument(parsing: text, path: "g.tsv")
        #expect(document.entries.map(\.source) == ["train station", "Good night"])
        #expect(document.problems.map(\.line) == [3, 5])
        #expect(document.problems[0].description.hasPrefix("g.tsv:3: "))
        // Nothing is lost: a save keeps the bad lines as they were.
        #expect(document.serialized() == text)
    }

    @Test func crlfAndByteOrderMarkAreKeptOnSave() {
        var document = GlossaryDocument(parsing: "\u{FEFF}term\ta\tb\r\n", path: "g.tsv")
        document.set([GlossaryEntry(kind: .term, source: "c", target: "d")])
        #expect(document.serialized() == "\u{FEFF}term\ta\tb\r\nterm\tc\td\r\n")
    }

    @Test func overlongLinesAreReportedAndKept() {
        let long = "term\t" + String(repeating: "a", count: 5_000) + "\tb"
        let document = GlossaryDocument(parsing: long + "\n", path: "g.tsv")
        #expect(document.entries.isEmpty && document.problems.count == 1)
        #expect(document.serialized() == long + "\n")
    }

    @Test func badEntriesAreRefused() {
        #expect(throws: GlossaryError.emptySource) { try GlossaryEntry.checked(kind: .term, source: "  ", target: "x") }
        #expect(throws: GlossaryError.emptyTarget(source: "a")) { try GlossaryEntry.checked(kind: .term, source: "a", target: "") }
        #expect(throws: GlossaryError.controlCharacter(field: "source text", position: 2)) {
            try GlossaryEntry.checked(kind: .term, source: "a\tb", target: "x")
        }
        #expect(throws: GlossaryError.termStartsWithoutWord("...")) { try GlossaryEntry.checked(kind: .term, source: "...", target: "x") }
        // The saved line, not each text, is held to the limit: 4 + 1 + 2,048 + 1 + 2,048 bytes.
        #expect(throws: GlossaryError.tooLong(bytes: 4_102)) {
            try GlossaryEntry.checked(kind: .term, source: String(repeating: "a", count: 2_048), target: String(repeating: "b", count: 2_048))
        }
    }

    @Test func termsMatchWholeWordsLongestFirst() {
        let matcher = GlossaryMatcher(entries: [
            GlossaryEntry(kind: .term, source: "train", target: "tren"),
            GlossaryEntry(kind: .term, source: "train station", target: "estación de tren"),
            GlossaryEntry(kind: .term, source: "Wi-Fi", target: "wifi"),
        ])
        #expect(matcher.terms(in: "The Train  Station has Wi-Fi.").map(\.matched) == ["Train  Station", "Wi-Fi"])
        #expect(matcher.terms(in: "trains and a training").isEmpty)
        #expect(matcher.terms(in: "a train, station").map(\.matched) == ["train"])
    }

    @Test func aThousandTermsAllMatch() {
        let entries = (0..<1_000).map { GlossaryEntry(kind: .term, source: "term\($0) word", target: "t\($0)") }
        let matcher = GlossaryMatcher(entries: entries)
        for number in [0, 499, 999] {
            #expect(matcher.terms(in: "I said term\(number) word twice.").map(\.entry) == [entries[number]])
        }
    }

    @Test func placeholderNumbersRoundTrip() {
        for number in [0, 1, 25, 26, 27, 675, 676, 999] {
            #expect(GlossaryProtection.number(of: GlossaryProtection.letters(for: number)) == number)
        }
    }

    @Test func csvRoundTrips() throws {
        let entries = [GlossaryEntry(kind: .term, source: "train station", target: "estación de tren"),
                       GlossaryEntry(kind: .phrase, source: "Say \"hi\", please", target: "Di \"hola\", por favor")]
        #expect(try GlossaryCSV.entries(parsing: GlossaryCSV.export(entries), path: "g.csv") == entries)
    }

    @Test func csvErrorsNameTheLine() {
        #expect(throws: GlossaryError.importFailure(path: "g.csv", line: 3, reason: "a quoted field is not closed on its line")) {
            try GlossaryCSV.entries(parsing: "source,target\na,b\n\"c,d\n", path: "g.csv")
        }
    }

    @Test func tbxRoundTrips() throws {
        let entries = [GlossaryEntry(kind: .term, source: "R&D <lab>", target: "I+D"),
                       GlossaryEntry(kind: .phrase, source: "Good night", target: "Buenas noches")]
        let text = GlossaryTBX.export(entries, from: "en", to: "es")
        #expect(try GlossaryTBX.entries(parsing: Data(text.utf8), path: "g.tbx", from: "en", to: "es") == entries)
    }

    @Test func tbxWithoutTheTargetLanguageIsRefused() {
        let text = GlossaryTBX.export([GlossaryEntry(kind: .term, source: "a", target: "b")], from: "en", to: "fr")
        #expect(throws: GlossaryError.self) { try GlossaryTBX.entries(parsing: Data(text.utf8), path: "g.tbx", from: "en", to: "es") }
    }

    @Test func tbxEntityDeclarationsAreFoundPastCommentsAndADoctypeWithoutThemIsRead() throws {
        let body = "<martif><text><body><termEntry><langSet xml:lang=\"en\"><term>car</term></langSet>"
            + "<langSet xml:lang=\"es\"><term>coche</term></langSet></termEntry></body></text></martif>"
        let hidden = "<?xml version=\"1.0\"?>\n<!DOCTYPE martif [\n<!-- <b> is bold\n-->\n<!ENTITY % co \"company\">\n]>\n" + body
        let refusal = GlossaryError.importFailure(path: "g.tbx", line: 5, reason: GlossaryTBX.entityRefusal("co"))
        #expect(throws: refusal) { try GlossaryTBX.entries(parsing: Data(hidden.utf8), path: "g.tbx", from: "en", to: "es") }
        let plain = "<?xml version=\"1.0\"?>\n<!DOCTYPE martif SYSTEM \"TBXcoreStructV02.dtd\">\n" + body
        #expect(try GlossaryTBX.entries(parsing: Data(plain.utf8), path: "g.tbx", from: "en", to: "es")
            == [GlossaryEntry(kind: .term, source: "car", target: "coche")])
    }
}
