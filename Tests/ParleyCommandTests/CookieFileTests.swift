import Foundation
import Testing
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

/// A cookie file is only ever read: what is not a regular file of the protocol's 256 bytes is
/// refused in one sentence before anything is opened, and left exactly as it was; a cookie on
/// a read-only file system is used.
@Suite("Cookie files", .serialized)
struct CookieFileTests {
    /// Files that are no cookie, and the end of the sentence that refuses each.
    enum NotACookie: String, CaseIterable {
        case empty, fifo, directory, short

        var problem: String {
            switch self {
            case .empty: "is empty, where a cookie is 256 bytes"
            case .fifo: "is a FIFO, not a cookie file"
            case .directory: "is a directory, not a cookie file"
            case .short: "is 100 bytes, where a cookie is 256 bytes"
            }
        }

        /// Makes this file at `path`.
        func make(at path: String) throws {
            switch self {
            case .empty: try Data().write(to: URL(fileURLWithPath: path))
            case .fifo: try #require(mkfifo(path, 0o600) == 0)
            case .directory: try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
            case .short: try Data((0..<100).map { UInt8($0) }).write(to: URL(fileURLWithPath: path))
            }
        }
    }

    /// What a file is now: its type, size, modification time and, for a regular file, its bytes.
    static func snapshot(_ path: String) throws -> String {
        var status = stat()
        try #require(lstat(path, &status) == 0, "\(path) is gone")
        let modified = "\(status.st_mtim.tv_sec).\(status.st_mtim.tv_nsec)"
        let regular = status.st_mode & S_IFMT == S_IFREG
        let bytes = regular ? try Data(contentsOf: URL(fileURLWithPath: path)).base64EncodedString() : "-"
        return "\(status.st_mode) \(status.st_size) \(modified) \(bytes)"
    }

    /// `parley` with `arguments`, bounded: a refusal comes long before the bound.
    static func parley(_ arguments: [String], environment: [String: String] = [:]) throws -> ProcessRunner.Output {
        var merged = try TestAudioServer.environment()
        merged["NO_COLOR"] = "1"
        merged.merge(environment) { _, new in new }
        return try ProcessRunner.run([ProcessRunner.parleyBinary] + arguments + ["--no-history", "--no-transcript"],
                                     input: Data(), environment: merged, timeout: 20)
    }

    @Test("a party's or a side's cookie that is no cookie file is refused in one sentence, and left as it was",
          arguments: NotACookie.allCases, ["room", "dialog"])
    func refused(file: NotACookie, command: String) throws {
        let directory = try Fixtures.temporaryDirectory("parley-cookie")
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("cookie").path
        try file.make(at: path)
        let before = try Self.snapshot(path)
        let output = try command == "room"
            ? Self.parley(["room", "en-US,source=a", "fr-FR,source=b,cookie=\(path)"])
            : Self.parley(["dialog", "en-US", "es-ES,source=b,cookie=\(path)"])
        let owner = command == "room" ? "party 2" : "side B"
        #expect(output.status == 64)
        #expect(output.stderr.contains("\(owner)'s cookie \(path) \(file.problem)") && output.stderr.split(separator: "\n").count <= 3,
                "\(output.stderr)")
        #expect(try Self.snapshot(path) == before, "the cookie file was changed")
    }

    @Test("a PULSE_COOKIE that is no cookie file is refused by a conversation, and left as it was")
    func environmentRefused() throws {
        let directory = try Fixtures.temporaryDirectory("parley-cookie")
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("cookie").path
        try NotACookie.short.make(at: path)
        let before = try Self.snapshot(path)
        let output = try Self.parley(["dialog", "en-US", "es-ES", "--typed-only"], environment: ["PULSE_COOKIE": path])
        #expect(output.status == 64)
        #expect(output.stderr.contains("PULSE_COOKIE names \(path), which is 100 bytes, where a cookie is 256 bytes"), "\(output.stderr)")
        #expect(try Self.snapshot(path) == before, "the cookie file was changed")
    }

    @Test("libpulse never rewrites a PULSE_COOKIE that is no cookie file: a command that connects leaves it as it was")
    func environmentNotRewritten() throws {
        let directory = try Fixtures.temporaryDirectory("parley-cookie")
        defer { try? FileManager.default.removeItem(at: directory) }
        for file in [NotACookie.empty, .short] {
            let path = directory.appendingPathComponent(file.rawValue).path
            try file.make(at: path)
            let before = try Self.snapshot(path)
            // The test server lets anyone in on its socket: the command connects either way.
            var environment = try TestAudioServer.environment()
            environment["PULSE_COOKIE"] = path
            let output = try ProcessRunner.run([ProcessRunner.parleyBinary, "devices"], environment: environment, timeout: 20)
            #expect(output.status == 0, "\(output.stderr)")
            #expect(output.stdout.contains("parley_speaker"), "\(output.stdout)")
            #expect(try Self.snapshot(path) == before, "libpulse changed the \(file.rawValue) cookie file")
        }
    }

    @Test("a cookie on a read-only file system is used by a room and a dialogue; one that is no cookie there is refused",
          .enabled(if: getuid() == 0, "mounting a read-only file system needs root"))
    func readOnlyFileSystem() throws {
        let directory = try Fixtures.temporaryDirectory("parley-cookie-remote")
        defer { try? FileManager.default.removeItem(at: directory) }
        let remote = try RoomTests.RemoteServer(directory: directory)
        let mount = try Fixtures.temporaryDirectory("parley-cookie-ro")
        defer { try? FileManager.default.removeItem(at: mount) }
        try Self.run(["mount", "-t", "tmpfs", "-o", "size=1m,mode=0700", "tmpfs", mount.path])
        defer { _ = try? ProcessRunner.run(["umount", mount.path]) }
        let cookie = mount.appendingPathComponent("cookie").path
        let empty = mount.appendingPathComponent("empty").path
        try FileManager.default.copyItem(atPath: remote.cookie, toPath: cookie)
        try NotACookie.empty.make(at: empty)
        try Self.run(["mount", "-o", "remount,ro", mount.path])
        let before = (try Self.snapshot(cookie), try Self.snapshot(empty))

        let spanish = "es-ES,source=parley_mic.monitor,sink=parley_speaker,server=\(remote.address)"
        let room = try Self.parley(["room", "en-US,source=\(TestAudioServer.speakerSource),sink=parley_speaker", "\(spanish),cookie=\(cookie)",
                                    "--recognizer", "pocketsphinx"], input: "@1 Thank you very much.\n")
        #expect(room.status == 0, "\(room.stderr)")
        #expect(room.stdout.contains("party 2: es-ES on \(remote.address)") && room.stdout.contains("→ 2 es-ES: "), "\(room.stdout)")

        let dialogue = try Self.parley(["dialog", "en-US,source=\(TestAudioServer.speakerSource),sink=parley_speaker",
                                        "\(spanish),cookie=\(cookie)", "--typed-only", "--recognizer", "pocketsphinx"],
                                       input: "Thank you very much.\n")
        #expect(dialogue.status == 0, "\(dialogue.stderr)")
        #expect(!dialogue.stderr.contains("cannot be reached"), "\(dialogue.stderr)")

        let refused = try Self.parley(["room", "en-US,source=a", "\(spanish),cookie=\(empty)"])
        #expect(refused.status == 64)
        #expect(refused.stderr.contains("party 2's cookie \(empty) is empty"), "\(refused.stderr)")
        #expect((try Self.snapshot(cookie), try Self.snapshot(empty)) == before, "a cookie file was changed")
    }

    private static func parley(_ arguments: [String], input: String) throws -> ProcessRunner.Output {
        var environment = try TestAudioServer.environment()
        environment["NO_COLOR"] = "1"
        return try ProcessRunner.run([ProcessRunner.parleyBinary] + arguments + ["--no-history", "--no-transcript"],
                                     input: Data(input.utf8), environment: environment, timeout: 120)
    }

    private static func run(_ arguments: [String]) throws {
        let output = try ProcessRunner.run(arguments)
        try #require(output.status == 0, "\(arguments.joined(separator: " ")): \(output.stderr)")
    }
}
