import Locales
import Pronunciation
import Synthesis
import Testing

/// The shipped tables (which a person may edit or replace) are read under the line limit of
/// every line-based file: a line over 4096 bytes is refused with its file and line.
@Suite("Shipped table line limit")
struct ShippedTableLineLimitTests {
    static let overlong = "# ok\n# " + String(repeating: "x", count: DataFile.maximumLineBytes) + "\n"

    static func expectRefused(_ parse: (String) throws -> Void) {
        do {
            try parse(overlong)
            Issue.record("a \(DataFile.maximumLineBytes + 2)-byte line was read")
        } catch let error as DataFileError {
            #expect(error.path == "table.tsv" && error.line == 2, "\(error)")
            #expect(error.description.contains("a line holds at most \(DataFile.maximumLineBytes) bytes"), "\(error)")
        } catch {
            Issue.record("unexpected error \(error)")
        }
    }

    @Test func everyTableRefusesAnOverlongLine() {
        Self.expectRefused { _ = try ARPAbetTable(parsing: $0, path: "table.tsv") }
        Self.expectRefused { _ = try IPASymbolTable(parsing: $0, path: "table.tsv", language: "en") }
        Self.expectRefused { _ = try IPANormalization(parsing: $0, path: "table.tsv", language: "en") }
        Self.expectRefused { _ = try VoiceGenderTable(parsing: $0, path: "table.tsv") }
    }

    @Test func aLineAtTheLimitIsRead() throws {
        let comment = "# " + String(repeating: "x", count: DataFile.maximumLineBytes - 2) + "\r\n"
        _ = try VoiceGenderTable(parsing: comment, path: "table.tsv")
        _ = try ARPAbetTable(parsing: comment + "AA\tɑ\n", path: "table.tsv")
    }
}
