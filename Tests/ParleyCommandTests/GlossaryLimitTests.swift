import Foundation
import Testing
import TestSupport

/// `parley glossary` at its limits: what it refuses is refused in one sentence
/// before anything is written, and nothing the glossary held is lost.
@Suite struct GlossaryLimitTests {
    func glossary(_ arguments: [String], _ dictionaries: String) throws -> ProcessRunner.Output {
        try ProcessRunner.parley(["glossary"] + arguments + ["--dictionaries", dictionaries])
    }

    /// Expects a refusal: exit 1, one line on stderr containing `message`.
    func expectRefused(_ output: ProcessRunner.Output, _ message: String, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(output.status == 1, "\(output.stderr)", sourceLocation: sourceLocation)
        #expect(output.stderr.hasPrefix("parley: ") && output.stderr.contains(message), "\(output.stderr)", sourceLocation: sourceLocation)
        #expect(output.stderr.split(separator: "\n").count == 1, "\(output.stderr)", sourceLocation: sourceLocation)
    }

    @Test func anEntryWhoseLineWouldBeTooLongIsRefusedBeforeItIsSaved() throws {
        let directory = try Fixtures.temporaryDirectory("parley-glossary-limit")
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.path, file = directory.appendingPathComponent("glossary-en-es.tsv").path
        #expect(try glossary(["add", "en", "es", "bank", "Bank"], path).status == 0)
        let before = try Data(contentsOf: URL(fileURLWithPath: file))
        // 4 + 1 + 2,048 + 1 + 2,048 = 4,102 bytes: six more than a line holds.
        let long = try glossary(["add", "en", "es", "a" + String(repeating: "b", count: 2_047), String(repeating: "c", count: 2_048)], path)
        expectRefused(long, "4102-byte line")
        #expect(try Data(contentsOf: URL(fileURLWithPath: file)) == before)
        // Exactly 4,096 bytes is saved, read back and removable.
        let source = "a" + String(repeating: "b", count: 2_044)
        #expect(try glossary(["add", "en", "es", source, String(repeating: "c", count: 2_045)], path).status == 0)
        let list = try glossary(["list", "en", "es", source], path)
        #expect(list.stderr.isEmpty && list.stdout.contains(source), "\(list.stderr)")
        #expect(try glossary(["remove", "en", "es", source], path).status == 0)
    }

    @Test func exportingOntoTheGlossaryItselfIsRefused() throws {
        let directory = try Fixtures.temporaryDirectory("parley-glossary-limit")
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.path, file = directory.appendingPathComponent("glossary-en-es.tsv").path
        #expect(try glossary(["add", "en", "es", "bank", "Bank"], path).status == 0)
        let before = try Data(contentsOf: URL(fileURLWithPath: file))
        let symlink = directory.appendingPathComponent("link.csv").path, hardLink = directory.appendingPathComponent("hard.csv").path
        try FileManager.default.createSymbolicLink(atPath: symlink, withDestinationPath: file)
        try FileManager.default.linkItem(atPath: file, toPath: hardLink)
        for target in [file, path + "/./glossary-en-es.tsv", symlink, hardLink] {
            expectRefused(try glossary(["export", "en", "es", target, "--format", "csv"], path), "is your en → es glossary itself")
            #expect(try Data(contentsOf: URL(fileURLWithPath: file)) == before, "\(target)")
        }
        #expect(try glossary(["list", "en", "es"], path).stderr.isEmpty)
    }

    @Test func aDeclaredEntityIsRefusedAndCDATAIsText() throws {
        let directory = try Fixtures.temporaryDirectory("parley-glossary-limit")
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.path, file = directory.appendingPathComponent("glossary-en-es.tsv").path
        let tbx = directory.appendingPathComponent("in.tbx").path
        func entry(_ source: String, _ target: String) -> String {
            "<termEntry><langSet xml:lang=\"en\"><tig><term>\(source)</term></tig></langSet>"
                + "<langSet xml:lang=\"es\"><tig><term>\(target)</term></tig></langSet></termEntry>"
        }
        func document(_ prolog: String, _ entries: String) -> String {
            "<?xml version=\"1.0\"?>\n\(prolog)\n<martif type=\"TBX\"><text><body>\n\(entries)\n</body></text></martif>\n"
        }
        try document("<!DOCTYPE martif [ <!ENTITY co \"company\"> ]>", entry("the &co; car", "el coche"))
            .write(toFile: tbx, atomically: true, encoding: .utf8)
        expectRefused(try glossary(["import", "en", "es", tbx], path), "in.tbx:2: the entity 'co' is declared")
        #expect(!FileManager.default.fileExists(atPath: file))
        let laughs = "<!DOCTYPE martif [ <!ENTITY a \"ha\"> <!ENTITY b \"&a;&a;&a;&a;&a;&a;&a;&a;\"> ]>"
        try document(laughs, entry("&b;", "x")).write(toFile: tbx, atomically: true, encoding: .utf8)
        expectRefused(try glossary(["import", "en", "es", tbx], path), "the entity 'a' is declared")
        try document("", entry("<![CDATA[R&D]]> team", "<![CDATA[equipo de I+D]]>")).write(toFile: tbx, atomically: true, encoding: .utf8)
        let imported = try glossary(["import", "en", "es", tbx], path)
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(try String(contentsOfFile: file, encoding: .utf8).hasSuffix("term\tR&D team\tequipo de I+D\n"))
    }

    @Test func importCountsWhatWasKept() throws {
        let directory = try Fixtures.temporaryDirectory("parley-glossary-limit")
        defer { try? FileManager.default.removeItem(at: directory) }
        let csv = directory.appendingPathComponent("in.csv").path
        try "source,target\ncar,coche\nCAR,auto\ncar,coche\nbank,Bank\n".write(toFile: csv, atomically: true, encoding: .utf8)
        let imported = try glossary(["import", "en", "es", csv], directory.path)
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(imported.stdout == "imported 2 entries into your en → es glossary (2 duplicates of an earlier entry skipped)\n")
        #expect(try glossary(["export", "en", "es"], directory.path).stdout == "source,target,kind\ncar,coche,term\nbank,Bank,term\n")
    }

    @Test func anOversizedOrBinaryImportIsRefusedBeforeItIsRead() throws {
        let directory = try Fixtures.temporaryDirectory("parley-glossary-limit")
        defer { try? FileManager.default.removeItem(at: directory) }
        for name in ["big.tbx", "big.csv"] {
            // A sparse file: its size is what stat says, without writing megabytes.
            let big = directory.appendingPathComponent(name).path
            #expect(FileManager.default.createFile(atPath: big, contents: Data("<martif>".utf8)))
            try FileHandle(forWritingAtPath: big).map { try $0.truncate(atOffset: 9_000_000); try $0.close() }
            let output = try glossary(["import", "en", "es", big], directory.path)
            expectRefused(output, "\(name): is 9,000,000 bytes (9.0 MB), over the limit of 8,388,608 bytes (8.4 MB) for a file to import")
        }
        let binary = directory.appendingPathComponent("nul.csv").path
        try Data("source,target\n".utf8 + [0, 0, 0]).write(to: URL(fileURLWithPath: binary))
        expectRefused(try glossary(["import", "en", "es", binary], directory.path), "nul.csv: holds a NUL byte at byte 15")
        #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent("glossary-en-es.tsv").path))
    }

    @Test func aPivotedPairSaysWhyItHasNoGlossary() throws {
        let directory = try Fixtures.temporaryDirectory("parley-glossary-limit")
        defer { try? FileManager.default.removeItem(at: directory) }
        expectRefused(try glossary(["add", "fr", "en", "voiture", "car"], directory.path),
                      "fr → en has no direct Apertium pair (it is translated through Spanish), and glossaries apply only to direct pairs")
    }

    @Test func anOversizedGlossaryIsRefusedWithItsSizeAndTranslationGoesOn() throws {
        let directory = try Fixtures.temporaryDirectory("parley-glossary-limit")
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.path, file = directory.appendingPathComponent("glossary-en-es.tsv").path
        // 40,000 lines of 34 bytes: 1,360,000 bytes, over the 1,048,576 a glossary holds.
        let text = (10_000..<50_000).map { "term\tword\($0) thing\tpalabra\($0)\n" }.joined()
        try text.write(toFile: file, atomically: true, encoding: .utf8)
        expectRefused(try glossary(["list", "en", "es"], path), "is 1,360,000 bytes (1.4 MB), over the limit of 1,048,576 bytes")
        let translated = try ProcessRunner.parley(["translate", "--from", "en", "--to", "es", "--dictionaries", path, "Good morning."])
        #expect(translated.status == 0 && !translated.stdout.isEmpty)
        #expect(translated.stderr.contains("the en-es glossary is not used") && translated.stderr.contains("over the limit"), "\(translated.stderr)")
        expectRefused(try glossary(["add", "en", "es", "bank", "Bank"], path), "a glossary holds at most 1,048,576 bytes")
        #expect(try String(contentsOfFile: file, encoding: .utf8) == text)
        // Removing shrinks it, so it is allowed.
        #expect(try glossary(["remove", "en", "es", "word10000 thing"], path).status == 0)
    }
}
