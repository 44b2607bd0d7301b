import Foundation
import Testing
import TestSupport
@testable import Pronunciation

/// What `dict export` and `dict add` do to what already stands at the path they write.
@Suite("Saving over symlinks and special files", .serialized)
struct SaveTargetTests {
    static func parley(_ arguments: [String], directory: String) throws -> ProcessRunner.Output {
        try DictCommandTests.parley(arguments, directory: directory)
    }

    /// The file type bits of `path` itself (not of what a symlink points to).
    static func fileType(_ path: String) -> mode_t {
        var info = stat()
        guard lstat(path, &info) == 0 else { return 0 }
        return info.st_mode & S_IFMT
    }

    @Test("export to a FIFO refuses with one sentence, exit 1, and leaves the FIFO")
    func exportToFIFO() throws {
        let directory = try TestData.temporaryDirectory()
        let fifo = "\(directory)/pipe"
        #expect(mkfifo(fifo, 0o666) == 0)
        let result = try Self.parley(["dict", "export", "en", fifo], directory: directory)
        #expect(result.status == 1)
        #expect(result.stderr == "parley: \(fifo) is a FIFO, not a regular file; it was left as it is: give the path of a file\n")
        #expect(Self.fileType(fifo) == S_IFIFO)
        #expect(!FileManager.default.fileExists(atPath: "\(directory)/.pipe.saving"))
    }

    @Test("export to a directory refuses with one sentence, not an NSCocoaErrorDomain dump")
    func exportToDirectory() throws {
        let directory = try TestData.temporaryDirectory()
        let result = try Self.parley(["dict", "export", "en", directory], directory: directory)
        #expect(result.status == 1)
        #expect(result.stderr == "parley: \(directory) is a directory, not a regular file; it was left as it is: give the path of a file\n")
    }

    @Test("export into a missing directory says so in one sentence")
    func exportIntoMissingDirectory() throws {
        let directory = try TestData.temporaryDirectory()
        let result = try Self.parley(["dict", "export", "en", "\(directory)/missing/words.tsv"], directory: directory)
        #expect(result.status == 1)
        #expect(result.stderr == "parley: \(directory)/missing/words.tsv: cannot be written, its directory does not exist\n")
    }

    @Test("export through a symlink writes the file it points to and keeps the link")
    func exportThroughSymlink() throws {
        let directory = try TestData.temporaryDirectory()
        let real = "\(directory)/real.tsv", link = "\(directory)/link.tsv"
        try "old\n".write(toFile: real, atomically: true, encoding: .utf8)
        #expect(chmod(real, 0o600) == 0)
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: "real.tsv")
        #expect(try Self.parley(["dict", "add", "en", "tomato", "təˈmɑːtəʊ"], directory: directory).status == 0)
        let result = try Self.parley(["dict", "export", "en", link], directory: directory)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(Self.fileType(link) == S_IFLNK)
        #expect(try String(contentsOfFile: real, encoding: .utf8).contains("tomato\ttəˈmɑːtəʊ\n"))
        let attributes = try FileManager.default.attributesOfItem(atPath: real)
        #expect((attributes[.posixPermissions] as? Int) == 0o600)
    }

    @Test("add on a symlinked en.dict edits the real file and keeps the link")
    func addThroughSymlink() throws {
        let directory = try TestData.temporaryDirectory(), elsewhere = try TestData.temporaryDirectory()
        try "# mine\nNguyen\twˈɪn\n".write(toFile: "\(elsewhere)/en.dict", atomically: true, encoding: .utf8)
        try FileManager.default.createSymbolicLink(atPath: "\(directory)/en.dict", withDestinationPath: "\(elsewhere)/en.dict")
        let result = try Self.parley(["dict", "add", "en", "tomato", "təˈmɑːtəʊ"], directory: directory)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(Self.fileType("\(directory)/en.dict") == S_IFLNK)
        #expect(try String(contentsOfFile: "\(elsewhere)/en.dict", encoding: .utf8) == "# mine\nNguyen\twˈɪn\ntomato\ttəˈmɑːtəʊ\n")
    }

    @Test("add when en.dict is a FIFO refuses and leaves it")
    func addOverFIFO() throws {
        let directory = try TestData.temporaryDirectory()
        #expect(mkfifo("\(directory)/en.dict", 0o666) == 0)
        let result = try Self.parley(["dict", "add", "en", "tomato", "təˈmɑːtəʊ"], directory: directory)
        #expect(result.status == 1)
        #expect(result.stderr.hasPrefix("parley: \(directory)/en.dict: is a FIFO, not a regular file"))
        #expect(result.stderr.filter { $0 == "\n" }.count == 1)
        #expect(Self.fileType("\(directory)/en.dict") == S_IFIFO)
    }
}
