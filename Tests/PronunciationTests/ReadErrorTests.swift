import Foundation
import Testing
import TestSupport
@testable import Pronunciation

/// Files and arguments that cannot be used, each said in one sentence that says why.
@Suite("Read errors said plainly", .serialized)
struct ReadErrorTests {
    static func parley(_ arguments: [String], directory: String) throws -> ProcessRunner.Output {
        try DictCommandTests.parley(arguments, directory: directory)
    }

    @Test("a dictionary line of millions of characters is a warning naming the line, and is kept on save")
    func overlongLine() throws {
        let directory = try TestData.temporaryDirectory()
        let long = "x\t" + String(repeating: "ə", count: 2_000_000)
        try "Nguyen\twˈɪn\n\(long)\n".write(toFile: "\(directory)/en.dict", atomically: true, encoding: .utf8)
        let list = try Self.parley(["dict", "list", "en", "nguyen"], directory: directory)
        #expect(list.status == 0)
        #expect(list.stderr == "parley: warning: \(directory)/en.dict:2: the line is 4000002 bytes long; "
            + "a dictionary line holds at most 4096 bytes\n")
        #expect(list.stdout == "word    ipa   from\nNguyen  wˈɪn  user\n")
        #expect(try Self.parley(["dict", "add", "en", "tomato", "təˈmɑːtəʊ"], directory: directory).status == 0)
        #expect(try String(contentsOfFile: "\(directory)/en.dict", encoding: .utf8) == "Nguyen\twˈɪn\n\(long)\ntomato\ttəˈmɑːtəʊ\n")
    }

    @Test("importing a missing file, a directory or a file that is not UTF-8 says which")
    func unreadableImports() throws {
        let directory = try TestData.temporaryDirectory()
        let missing = try Self.parley(["dict", "import", "en", "\(directory)/missing.tsv"], directory: directory)
        #expect(missing.status == 1)
        #expect(missing.stderr == "parley: \(directory)/missing.tsv: does not exist\n")
        let folder = try Self.parley(["dict", "import", "en", directory], directory: directory)
        #expect(folder.stderr == "parley: \(directory): is a directory, not a regular file\n")
        try Data([0x66, 0xff, 0xfe, 0x09, 0x66, 0x0a]).write(to: URL(fileURLWithPath: "\(directory)/latin1.tsv"))
        let latin1 = try Self.parley(["dict", "import", "en", "\(directory)/latin1.tsv"], directory: directory)
        #expect(latin1.stderr == "parley: \(directory)/latin1.tsv: is not UTF-8 text\n")
        let pls = try Self.parley(["dict", "import", "en", "\(directory)/missing.pls"], directory: directory)
        #expect(pls.stderr == "parley: cannot import \(directory)/missing.pls: the file does not exist\n")
    }

    @Test("a dictionaries directory that is not a directory is a warning, not silence")
    func unusableDictionariesDirectory() throws {
        let directory = try TestData.temporaryDirectory()
        let file = "\(directory)/not-a-directory"
        try "".write(toFile: file, atomically: true, encoding: .utf8)
        let list = try Self.parley(["dict", "list", "en", "tomato"], directory: file)
        #expect(list.status == 0)
        #expect(list.stderr == "parley: warning: \(file): is a regular file, not a directory; your own dictionaries there are not used\n")
    }

    @Test("a CMU pronunciation with an unknown phone names the word and its line")
    func cmuBadPhone() throws {
        let directory = try TestData.temporaryDirectory()
        try "judge JH AH1 JH\nzork Z QQ R K\n".write(toFile: "\(directory)/cmu.dict", atomically: true, encoding: .utf8)
        try "judge\nzork\n".write(toFile: "\(directory)/words.txt", atomically: true, encoding: .utf8)
        let result = try Self.parley(["dict", "import", "en", "--cmudict", "\(directory)/words.txt",
                                      "--cmudict-path", "\(directory)/cmu.dict"], directory: directory)
        #expect(result.status == 1)
        #expect(result.stderr == "parley: cannot import \(directory)/cmu.dict: line 2, 'zork': unknown ARPAbet phone 'QQ' in 'Z QQ R K'\n")
    }

    @Test("a CMU dictionary or a word list with a line over 4096 bytes is refused, naming the file and the line")
    func cmuOverlongLines() throws {
        let directory = try TestData.temporaryDirectory()
        let long = String(repeating: "a", count: 5_000)
        let import_ = { (words: String, cmu: String) in
            try Self.parley(["dict", "import", "en", "--cmudict", "\(directory)/\(words)", "--cmudict-path", "\(directory)/\(cmu)"],
                            directory: directory)
        }
        try "judge JH AH1 JH\r\n\(long) AH1\r\n".write(toFile: "\(directory)/long.dict", atomically: true, encoding: .utf8)
        try "judge JH AH1 JH\n".write(toFile: "\(directory)/cmu.dict", atomically: true, encoding: .utf8)
        try "judge\n".write(toFile: "\(directory)/words.txt", atomically: true, encoding: .utf8)
        try "judge\n\(long)\n".write(toFile: "\(directory)/long.txt", atomically: true, encoding: .utf8)
        let cmu = try import_("words.txt", "long.dict")
        #expect(cmu.status == 1)
        #expect(cmu.stderr == "parley: line 2 of \(directory)/long.dict is 5004 bytes long; a line holds at most 4096 bytes\n")
        let list = try import_("long.txt", "cmu.dict")
        #expect(list.status == 1)
        #expect(list.stderr == "parley: line 2 of \(directory)/long.txt is 5000 bytes long; a line holds at most 4096 bytes\n")
        #expect(!FileManager.default.fileExists(atPath: "\(directory)/en.dict"), "nothing was imported")
        #expect(try import_("words.txt", "cmu.dict").status == 0, "the same files without the long line import")
    }

    @Test("the line limit counts bytes of UTF-8 without the line ending, and names the first long line")
    func lineLimitCounting() {
        let limit = LineLengthLimit.maximumBytes
        #expect(LineLengthLimit.firstOverlongLine(in: String(repeating: "a", count: limit) + "\r\nb\n") == nil)
        #expect(LineLengthLimit.firstOverlongLine(in: "a\n" + String(repeating: "ə", count: limit / 2 + 1))! == (2, limit + 2))
        #expect(LineLengthLimit.firstOverlongLine(in: "a\n\n" + String(repeating: "b", count: limit + 1) + "\nc")! == (3, limit + 1))
    }

    @Test("a language given by name is looked up as its code; an unknown one suggests only real names")
    func languageByName() throws {
        let directory = try TestData.temporaryDirectory()
        #expect(try Self.parley(["dict", "add", "en", "tomato", "təˈmɑːtəʊ"], directory: directory).status == 0)
        let byName = try Self.parley(["dict", "list", "English", "tom"], directory: directory)
        #expect(byName.status == 0, "\(byName.stderr)")
        #expect(byName.stdout == "word    ipa        from\ntomato  təˈmɑːtəʊ  user\n")
        let unknown = try Self.parley(["dict", "lookup", "Englsh", "tomato"], directory: directory)
        #expect(unknown.status == 64)
        #expect(unknown.stderr.contains("unknown locale 'Englsh'; did you mean English"))
        #expect(!unknown.stderr.contains("build-tables"))
    }
}
