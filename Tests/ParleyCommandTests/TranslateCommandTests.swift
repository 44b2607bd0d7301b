import Foundation
import Testing
import TestSupport
import TranslationReference

/// `parley translate` end to end, compared with the `apertium` command: the
/// text with its output after the shipped clean-up, `--raw` and the JSON `raw`
/// field with its output unchanged.
@Suite struct TranslateCommandTests {
    /// What `apertium -u DIRECTION` prints for one line, spawned anew, after the clean-up.
    func apertium(_ direction: String, _ line: String) throws -> String {
        try ApertiumReference.cleaned(direction, line)
    }

    @Test func translatesEveryStandardInputLineInOrder() throws {
        let lines = ["Good morning.", "", "Where is the train station?", "I would like two tickets, please."]
        let output = try ProcessRunner.run([ProcessRunner.parleyBinary, "translate", "--from", "en", "--to", "es"],
                                           input: Data((lines.joined(separator: "\n") + "\n").utf8))
        #expect(output.status == 0, "\(output.stderr)")
        let printed = output.stdout.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init)
        #expect(printed == (try lines.map { try apertium("eng-spa", $0) }))
    }

    @Test func aLineThatIsNotUTF8IsRefusedInOneSentenceAndTheOthersAreTranslatedInPlace() throws {
        var input = Data("Good morning.\n".utf8)
        input += Data([0x63, 0x61, 0x66, 0xE9, 0x0A])              // "café" in Latin-1
        input += Data("Where is the train station?\r\n".utf8)   // a CRLF line ending is a line ending
        let output = try ProcessRunner.run([ProcessRunner.parleyBinary, "translate", "--from", "en", "--to", "es"], input: input)
        #expect(output.status == 1)
        #expect(output.stderr == "parley: line 2 of standard input is not UTF-8 text and was not translated; "
                + "convert it to UTF-8 first (for example iconv -f LATIN1 -t UTF-8)\n")
        let printed = output.stdout.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init)
        #expect(printed == [try apertium("eng-spa", "Good morning."), "", try apertium("eng-spa", "Where is the train station?")])
    }

    @Test func translatesTheTextArgument() throws {
        let output = try ProcessRunner.run([ProcessRunner.parleyBinary, "translate", "--from", "es", "--to", "en-US",
                                            "¿Dónde", "está", "el", "hotel?"])
        #expect(output.status == 0, "\(output.stderr)")
        #expect(output.stdout == (try apertium("spa-eng_US", "¿Dónde está el hotel?")) + "\n")
    }

    @Test func jsonCarriesTheUnknownWords() throws {
        let output = try ProcessRunner.run([ProcessRunner.parleyBinary, "translate", "--from", "en", "--to", "es", "--json"],
                                           input: Data("I have a xyzzy.\n".utf8))
        #expect(output.status == 0, "\(output.stderr)")
        let object = try JSONSerialization.jsonObject(with: Data(output.stdout.utf8)) as? [String: Any]
        #expect(object?["unknown_words"] as? [String] == ["xyzzy"])
        #expect(object?["text"] as? String == (try apertium("eng-spa", "I have a xyzzy.")))
        #expect(object?["raw"] as? String == (try ApertiumReference.raw("eng-spa", "I have a xyzzy.")))
        #expect(object?["direction"] as? String == "eng-spa")
    }

    @Test func jsonReportsTheCleanupApplied() throws {
        let sentence = "Is there a bank near the hotel?"
        let output = try ProcessRunner.run([ProcessRunner.parleyBinary, "translate", "--from", "en", "--to", "es", "--json"],
                                           input: Data((sentence + "\n").utf8))
        #expect(output.status == 0, "\(output.stderr)")
        let object = try JSONSerialization.jsonObject(with: Data(output.stdout.utf8)) as? [String: Any]
        let raw = try ApertiumReference.raw("eng-spa", sentence)
        #expect(object?["raw"] as? String == raw)
        #expect(object?["text"] as? String == "¿" + raw)
        #expect(object?["cleanup"] as? [String] == ["opening-mark"])
    }

    @Test func rawPrintsExactlyTheApertiumCommand() throws {
        let lines = ["Is there a bank near the hotel?", "Where is the train station?"]
        let output = try ProcessRunner.run([ProcessRunner.parleyBinary, "translate", "--from", "en", "--to", "es", "--raw"],
                                           input: Data((lines.joined(separator: "\n") + "\n").utf8))
        #expect(output.status == 0, "\(output.stderr)")
        #expect(output.stdout == (try lines.map { try ApertiumReference.raw("eng-spa", $0) + "\n" }.joined()))
    }

    @Test func unknownPrintsTheMarkedWordsOnStandardError() throws {
        let output = try ProcessRunner.run([ProcessRunner.parleyBinary, "translate", "--from", "en", "--to", "es",
                                            "--unknown", "I have a xyzzy."])
        #expect(output.status == 0)
        #expect(output.stderr == "parley: unknown words: *xyzzy\n")
        #expect(!output.stdout.contains("*"))
    }

    @Test func aMissingDirectionFailsWithOneSentence() throws {
        let output = try ProcessRunner.run([ProcessRunner.parleyBinary, "translate", "--from", "ro", "--to", "en", "Bună ziua"])
        #expect(output.status == 1)
        #expect(output.stderr.contains("installed directions: cat-spa, eng-spa, es-fr, "))
        #expect(output.stderr.contains("apertium-es-ro (through Spanish)"))
        #expect(output.stderr.split(separator: "\n").count == 1)
    }

    @Test func twoLocalesOfOneLanguageAreRefusedWithoutSuggestingPackages() throws {
        for (target, expected) in [("en-GB", "parley: en-US and en-GB are one language, and no Apertium translation between its varieties is installed\n"),
                                   ("en-US", "parley: en-US into en-US is no translation: the two locales are the same\n")] {
            let output = try ProcessRunner.run([ProcessRunner.parleyBinary, "translate", "--from", "en-US", "--to", target, "Good morning"])
            #expect(output.status == 1)
            #expect(output.stderr == expected)
            #expect(output.stdout.isEmpty)
        }
    }

    @Test func aLocaleNoCatalogRowNamesIsAskedOfApertiumByItsISOCode() throws {
        // Icelandic has no row in locales.tsv: its Apertium code is its ISO 639-3 code, and the
        // sentence names the Debian pair that would serve it.
        let output = try ProcessRunner.run([ProcessRunner.parleyBinary, "translate", "--from", "en", "--to", "is-IS", "Good morning"])
        #expect(output.status == 1)
        #expect(output.stderr.contains("no Apertium translation from en-US to is-IS (eng-isl)"), "\(output.stderr)")
        #expect(output.stderr.contains("apt-get install apertium-isl-eng"), "\(output.stderr)")
        #expect(output.stderr.split(separator: "\n").count == 1)
    }

    @Test func withoutADirectPairTheTextGoesThroughSpanishAndStdoutHasOnlyTheTranslation() throws {
        let lines = ["Bonjour, je voudrais un café.", "Où est la gare ?"]
        let output = try ProcessRunner.run([ProcessRunner.parleyBinary, "translate", "--from", "fr", "--to", "en"],
                                           input: Data((lines.joined(separator: "\n") + "\n").utf8))
        #expect(output.status == 0, "\(output.stderr)")
        let expected = try lines.map {
            ApertiumReference.cleanup.apply(to: try ApertiumReference.chainedRaw(["fr-es", "spa-eng_US"], $0), language: "en").text
        }
        #expect(output.stdout == expected.map { $0 + "\n" }.joined())
        #expect(output.stderr == "parley: note: no direct Apertium pair from fr-FR to en-US; translating through Spanish (fr-es+spa-eng_US)\n")
    }

    @Test func jsonMarksAPivotedTranslationWithItsRouteAndLegs() throws {
        let sentence = "Where is the train station?"
        let output = try ProcessRunner.run([ProcessRunner.parleyBinary, "translate", "--from", "en", "--to", "fr", "--json", sentence])
        #expect(output.status == 0, "\(output.stderr)")
        #expect(output.stderr.isEmpty)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(output.stdout.utf8)) as? [String: Any])
        let spanish = try ApertiumReference.raw("eng-spa", sentence)
        #expect(object["raw"] as? String == (try ApertiumReference.raw("es-fr", spanish)))
        #expect(object["route"] as? [String] == ["en", "es", "fr"])
        #expect(object["pivots"] as? [String] == ["es"])
        #expect(object["direction"] as? String == "eng-spa+es-fr")
        let legs = try #require(object["legs"] as? [[String: Any]])
        #expect(legs.map { $0["direction"] as? String } == ["eng-spa", "es-fr"])
        #expect(legs.first?["raw"] as? String == spanish)
    }

    @Test func jsonOfADirectTranslationHasNoRoute() throws {
        let output = try ProcessRunner.run([ProcessRunner.parleyBinary, "translate", "--from", "en", "--to", "es", "--json", "Hello."])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(output.stdout.utf8)) as? [String: Any])
        #expect(object["route"] == nil && object["pivots"] == nil && object["legs"] == nil)
    }

    @Test func aLineThatCannotBeTranslatedKeepsTheLinesAligned() throws {
        let output = try ProcessRunner.run([ProcessRunner.parleyBinary, "translate", "--from", "en", "--to", "es"],
                                           input: Data("Hello\u{0}world\nGood morning.\n".utf8))
        #expect(output.status == 1)
        #expect(output.stdout == "\n" + (try apertium("eng-spa", "Good morning.")) + "\n")
        #expect(output.stderr.contains("NUL"))
    }

    /// Each translation appears before the next line is even written: the command works in a pipe.
    @Test func answersEachLineBeforeTheNextArrives() throws {
        let child = try ChildProcess([ProcessRunner.parleyBinary, "translate", "--from", "en", "--to", "es"])
        defer { child.signal(SIGTERM) }
        /// The lines of `printed` that have ended.
        func lines(_ printed: String) -> [Substring] { Array(printed.split(separator: "\n", omittingEmptySubsequences: false).dropLast()) }
        for (count, sentence) in ["Good morning.", "Thank you very much."].enumerated() {
            child.send(sentence)
            try #require(child.waitFor(seconds: 30) { stdout, _ in lines(stdout).count > count }, "no answer to '\(sentence)' within 30 s")
            #expect(String(lines(child.stdout)[count]) == (try apertium("eng-spa", sentence)))
        }
        child.closeInput()
        #expect(child.wait(seconds: 60) == 0, "parley translate did not exit with status 0 at the end of its input")
    }
}
