import Foundation
import Testing
import TestSupport
@testable import Pronunciation

/// `parley dict …` end to end, through the built binary.
@Suite("parley dict", .serialized)
struct DictCommandTests {
    static func parley(_ arguments: [String], directory: String) throws -> ProcessRunner.Output {
        try ProcessRunner.run([ProcessRunner.parleyBinary] + arguments + ["--dictionaries", directory])
    }

    @Test("add, lookup, list with a filter, export and import a PLS file, remove")
    func editingSession() throws {
        let directory = try TestData.temporaryDirectory()
        let added = try Self.parley(["dict", "add", "en", "tomato", "təˈmɑːtəʊ"], directory: directory)
        #expect(added.status == 0, "\(added.stderr)")
        #expect(added.stdout.hasPrefix("tomato\ttəˈmɑːtəʊ\t[[t|@|'m|0|t|@|U]]"))
        let lookup = try Self.parley(["dict", "lookup", "en", "Tomato"], directory: directory)
        #expect(lookup.stdout == "Tomato\ttəmˈɑːɾəʊ\n  user dictionary: təˈmɑːtəʊ; eSpeak NG alone: təmˈeɪɾoʊ\n")
        let list = try Self.parley(["dict", "list", "en", "tom"], directory: directory)
        #expect(list.stdout == "word    ipa        from\ntomato  təˈmɑːtəʊ  user\n")
        let pls = "\(directory)/words.pls"
        #expect(try Self.parley(["dict", "export", "en", pls], directory: directory).status == 0)
        let other = try TestData.temporaryDirectory()
        let imported = try Self.parley(["dict", "import", "en", pls], directory: other)
        let shipped = try PronunciationDictionaries(directories: TestData.directories()).load(language: "en").entries.count
        #expect(imported.stdout.hasPrefix("imported \(shipped + 1) entries"), "\(imported.stdout)")
        #expect(try Self.parley(["dict", "lookup", "en", "tomato"], directory: other).stdout == lookup.stdout.replacingOccurrences(of: "Tomato", with: "tomato"))
        #expect(try Self.parley(["dict", "remove", "en", "tomato"], directory: directory).status == 0)
        #expect(try Self.parley(["dict", "list", "en", "tom"], directory: directory).stdout == "word  ipa  from\n")
    }

    @Test("say previews the word as espeak says it, then with the entry: two utterances, into a file or the speaker")
    func sayPreview() throws {
        let directory = try Fixtures.temporaryDirectory().path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        func seconds(_ file: String) throws -> Double {
            let output = try ProcessRunner.run(["soxi", "-D", file])
            return try #require(Double(output.stdout.trimmingCharacters(in: .whitespacesAndNewlines)))
        }
        let alone = try Self.parley(["dict", "say", "en", "tomato", "--out", "\(directory)/alone.wav"], directory: directory)
        #expect(alone.status == 0)
        #expect(alone.stderr.contains("has no en dictionary entry"))
        #expect(try Self.parley(["dict", "add", "en", "tomato", "təˈmɑːtəʊ"], directory: directory).status == 0)
        let both = try Self.parley(["dict", "say", "en", "tomato", "--out", "\(directory)/both.wav"], directory: directory)
        #expect(both.status == 0, "dict say failed: \(both.stderr)")
        #expect(try seconds("\(directory)/both.wav") > 2 * (try seconds("\(directory)/alone.wav")) + 0.3)

        let speaker = try LoopbackDevice(label: "dictsay")
        let capture = try speaker.startRecording()
        let played = try ProcessRunner.run([ProcessRunner.parleyBinary, "dict", "say", "en", "tomato", "--sink", speaker.sink,
                                            "--dictionaries", directory], environment: TestAudioServer.environment())
        let recorded = try capture.stop()
        #expect(played.status == 0, "dict say failed: \(played.stderr)")
        #expect(recorded.filter { abs(Int($0)) > 1_000 }.count > 4_000)
    }

    @Test("a bad symbol fails with one sentence naming it and its position, exit 1")
    func badSymbol() throws {
        let result = try Self.parley(["dict", "add", "en", "tomato", "təˈmɑːɮəʊ"], directory: TestData.temporaryDirectory())
        #expect(result.status == 1)
        #expect(result.stderr == "parley: 'ɮ' at position 7 of 'təˈmɑːɮəʊ' has no eSpeak NG equivalent in the en table; use one of the symbols `parley dict symbols en` lists\n")
    }

    @Test("a malformed line in the user's dictionary is a warning with file and line; the rest is listed")
    func malformedLine() throws {
        let directory = try TestData.temporaryDirectory()
        try "Nguyen\twˈɪn\nbroken line\n".write(toFile: "\(directory)/en.dict", atomically: true, encoding: .utf8)
        let result = try Self.parley(["dict", "list", "en", "nguyen"], directory: directory)
        #expect(result.status == 0)
        #expect(result.stderr == "parley: warning: \(directory)/en.dict:2: expected a word, a tab and its IPA pronunciation, found no tab\n")
        #expect(result.stdout == "word    ipa   from\nNguyen  wˈɪn  user\n")
    }

    @Test("CMU import of a word list adds the words it knows and names the others")
    func cmuImport() throws {
        let directory = try TestData.temporaryDirectory()
        try "judge\nvision\nzzyzxq\n".write(toFile: "\(directory)/words.txt", atomically: true, encoding: .utf8)
        let result = try Self.parley(["dict", "import", "en", "--cmudict", "\(directory)/words.txt"], directory: directory)
        #expect(result.status == 0)
        #expect(result.stderr == "parley: not in the CMU dictionary, skipped: zzyzxq\n")
        let list = try Self.parley(["dict", "list", "en", "vision"], directory: directory)
        #expect(list.stdout == "word    ipa    from\nvision  vɪʒən  user\n")
        #expect(try Self.parley(["dict", "list", "en", "judge"], directory: directory).stdout == "word   ipa     from\njudge  dʒˈʌdʒ  user\n")
    }

    @Test("an import that finds no entry fails in one sentence and writes no dictionary")
    func nothingToImport() throws {
        let directory = try TestData.temporaryDirectory()
        try "tomato təˈmɑːtoʊ\n".write(toFile: "\(directory)/spaces.tsv", atomically: true, encoding: .utf8)
        try "zzyzxq\n".write(toFile: "\(directory)/unknown.txt", atomically: true, encoding: .utf8)
        let file = try Self.parley(["dict", "import", "en", "\(directory)/spaces.tsv"], directory: directory)
        #expect(file.status == 1)
        #expect(file.stderr.hasSuffix("parley: nothing imported: \(directory)/spaces.tsv holds no entry "
            + "(a word, a tab and its IPA pronunciation per line, or a PLS lexicon)\n"), "\(file.stderr)")
        let cmu = try Self.parley(["dict", "import", "en", "--cmudict", "\(directory)/unknown.txt"], directory: directory)
        #expect(cmu.status == 1)
        #expect(cmu.stderr.hasSuffix("parley: nothing imported: none of the words in \(directory)/unknown.txt is in the CMU dictionary\n"))
        #expect(!FileManager.default.fileExists(atPath: "\(directory)/en.dict"))
        try "tomato\ttəˈmɑːtoʊ\n".write(toFile: "\(directory)/one.tsv", atomically: true, encoding: .utf8)
        let one = try Self.parley(["dict", "import", "en", "\(directory)/one.tsv"], directory: directory)
        #expect(one.stdout == "imported 1 entry into \(directory)/en.dict\n", "\(one.stderr)")
    }
}
