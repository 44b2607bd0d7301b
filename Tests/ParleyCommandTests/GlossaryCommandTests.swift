import Foundation
import Testing
import TestSupport
import TranslationReference

/// `parley glossary`, `parley translate` and the piped dialogue with a glossary, end to end.
@Suite struct GlossaryCommandTests {
    /// A fresh data directory, removed by the caller.
    func directory() throws -> URL { try Fixtures.temporaryDirectory("parley-glossary") }

    func glossary(_ arguments: [String], _ dictionaries: String, input: Data? = nil) throws -> ProcessRunner.Output {
        try ProcessRunner.parley(["glossary"] + arguments + ["--dictionaries", dictionaries], input: input)
    }

    @Test func addListLookupRemoveRoundTrip() throws {
        let directory = try directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.path
        #expect(try glossary(["add", "en", "es", "train station", "estación de tren"], path).status == 0)
        #expect(try glossary(["add", "English", "español", "Good night!", "Que descanses.", "--phrase"], path).status == 0)
        let list = try glossary(["list", "en", "es"], path)
        #expect(list.status == 0 && list.stderr.isEmpty)
        #expect(list.stdout.contains("term    train station  estación de tren"))
        #expect(list.stdout.contains("phrase  Good night!    Que descanses."))
        let lookup = try glossary(["lookup", "en", "es", "Is the Train Station open?"], path)
        #expect(lookup.stdout == "term\ttrain station\testación de tren\n")
        #expect(try glossary(["lookup", "en", "es", "good night"], path).stdout == "phrase\tGood night!\tQue descanses.\n")
        #expect(try glossary(["remove", "en", "es", "TRAIN   station"], path).status == 0)
        let after = try glossary(["list", "en", "es"], path)
        #expect(!after.stdout.contains("train station") && after.stdout.contains("Good night!"))
        let missing = try glossary(["remove", "en", "es", "train station"], path)
        #expect(missing.status == 1 && missing.stderr.split(separator: "\n").count == 1)
    }

    @Test func importAndExportRoundTripInBothFormats() throws {
        let directory = try directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let source = directory.appendingPathComponent("a").path, copy = directory.appendingPathComponent("b").path
        let csv = directory.appendingPathComponent("in.csv").path
        try "source,target,kind\ntrain station,estación de tren,term\n\"Thanks, bye\",\"Gracias, adiós\",phrase\nbank,Bank\n"
            .write(toFile: csv, atomically: true, encoding: .utf8)
        let imported = try glossary(["import", "en", "es", csv], source)
        #expect(imported.status == 0 && imported.stdout.contains("imported 3 entries"), "\(imported.stderr)")
        for format in ["tbx", "csv"] {
            let file = directory.appendingPathComponent("out.\(format)").path
            #expect(try glossary(["export", "en", "es", file], source).status == 0)
            let target = copy + format
            #expect(try glossary(["import", "en", "es", file], target).status == 0)
            #expect(try glossary(["export", "en", "es"], target).stdout == (try glossary(["export", "en", "es"], source).stdout))
        }
        #expect(try glossary(["export", "en", "es"], source).stdout
            == "source,target,kind\ntrain station,estación de tren,term\n\"Thanks, bye\",\"Gracias, adiós\",phrase\nbank,Bank,term\n")
    }

    @Test func badInputIsOneSentenceAndLeavesTheGlossaryAlone() throws {
        let directory = try directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.path
        #expect(try glossary(["add", "en", "es", "bank", "Bank"], path).status == 0)
        let file = directory.appendingPathComponent("glossary-en-es.tsv").path
        let before = try Data(contentsOf: URL(fileURLWithPath: file))
        let broken = directory.appendingPathComponent("broken.csv").path
        try "train station,estación de tren\ncar,coche,vehicle\n".write(toFile: broken, atomically: true, encoding: .utf8)
        let tbx = directory.appendingPathComponent("broken.tbx").path
        try "<martif><text><body><termEntry>".write(toFile: tbx, atomically: true, encoding: .utf8)
        let cases: [([String], String)] = [
            (["import", "en", "es", broken], "broken.csv:2: 'vehicle' is not a kind of entry"),
            (["import", "en", "es", tbx], "not well-formed XML"),
            (["add", "en", "es", "", "vacío"], "the source text is empty"),
            (["add", "en", "es", "car", " "], "the translation of 'car' is empty"),
            (["add", "en", "vulcan", "car", "coche"], "unknown locale 'vulcan'"),
            (["add", "en", "klingon", "car", "coche"], "no Apertium translation from en-US to tlh"),
            (["add", "en", "de", "car", "Auto"], "no Apertium translation from en-US to de-DE"),
            (["import", "en", "es", directory.appendingPathComponent("none.csv").path], "does not exist"),
        ]
        for (arguments, message) in cases {
            let output = try glossary(arguments, path)
            #expect(output.status != 0, "\(arguments)")
            #expect(output.stderr.hasPrefix("parley: ") && output.stderr.contains(message), "\(arguments): \(output.stderr)")
            #expect(output.stderr.split(separator: "\n").count == 1, "\(output.stderr)")
            #expect(try Data(contentsOf: URL(fileURLWithPath: file)) == before, "\(arguments) changed the glossary")
        }
    }

    @Test func aMalformedLineIsNamedAndTheRestStillTranslates() throws {
        let directory = try directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("glossary-en-es.tsv").path
        try "term\tbank\tBank\nterm\tno translation\n".write(toFile: file, atomically: true, encoding: .utf8)
        let list = try glossary(["list", "en", "es"], directory.path)
        #expect(list.stderr.contains("glossary-en-es.tsv:2: expected 'term' or 'phrase'"))
        #expect(list.stdout.contains("bank"))
        let translated = try ProcessRunner.parley(["translate", "--from", "en", "--to", "es", "--dictionaries", directory.path,
                                                   "The bank is closed."])
        #expect(translated.status == 0 && translated.stdout.contains("Bank"))
        #expect(try glossary(["add", "en", "es", "car", "coche"], directory.path).status == 0)
        #expect(try String(contentsOfFile: file, encoding: .utf8).contains("term\tno translation\n"), "the bad line is kept")
    }

    @Test func translateJsonNamesTheEntriesUsed() throws {
        let directory = try directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        #expect(try glossary(["add", "en", "es", "train station", "estación de tren"], directory.path).status == 0)
        let sentences = ["Where is the train station?", "Good morning."]
        let output = try ProcessRunner.parley(["translate", "--from", "en", "--to", "es", "--json", "--dictionaries", directory.path],
                                              input: Data((sentences.joined(separator: "\n") + "\n").utf8))
        #expect(output.status == 0, "\(output.stderr)")
        let objects = try output.stdout.split(separator: "\n").map { try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
        let used = objects[0]?["glossary"] as? [[String: String]]
        #expect(used == [["kind": "term", "source": "train station", "target": "estación de tren"]])
        #expect((objects[0]?["text"] as? String)?.contains("estación de tren") == true)
        #expect(!(try ApertiumReference.raw("eng-spa", sentences[0])).contains("estación de tren"))
        #expect((objects[1]?["glossary"] as? [Any])?.isEmpty == true)
        #expect(objects[1]?["text"] as? String == (try ApertiumReference.cleaned("eng-spa", sentences[1])))
        let plain = try ProcessRunner.parley(["translate", "--from", "en", "--to", "es", "--no-glossary", "--dictionaries", directory.path,
                                              sentences[0]])
        #expect(plain.stdout == (try ApertiumReference.cleaned("eng-spa", sentences[0])) + "\n")
    }

    @Test func glossaryCommandsInThePipedDialogueApplyToTheNextTurn() throws {
        let directory = try directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let dictionaries = directory.appendingPathComponent("dict").path
        let transcript = directory.appendingPathComponent("t.jsonl").path
        let input = """
            :glossary add en es "train station" "estación de tren"
            Where is the train station?
            :glossary add es en --phrase "Muchas gracias" "Thank you very much"
            Muchas gracias.
            :glossary list en es
            """
        let output = try ProcessRunner.parley(["--no-history", "--typed-only", "--mute", "--transcript", transcript,
                                               "--dictionaries", dictionaries],
                                              input: Data((input + "\n").utf8), environment: ["XDG_STATE_HOME": directory.path])
        #expect(output.status == 0, "\(output.stderr)")
        let lines = output.stdout.split(separator: "\n").map(String.init)
        #expect(lines.contains("note: glossary: train station → estación de tren"))
        #expect(lines.contains("→ en-US: Thank you very much"))
        #expect(lines.contains("term  train station  estación de tren"), "\(lines)")
        let turns = try String(contentsOfFile: transcript, encoding: .utf8).split(separator: "\n")
            .map { try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
        try #require(turns.count == 2)
        #expect(turns[0]?["glossary"] as? [String] == ["train station → estación de tren"])
        #expect((turns[0]?["translation"] as? String)?.contains("estación de tren") == true)
        #expect(turns[1]?["glossary"] as? [String] == ["Muchas gracias → Thank you very much"])
    }
}
