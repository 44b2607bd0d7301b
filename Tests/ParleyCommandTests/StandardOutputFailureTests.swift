import ChildProcesses
import Foundation
import Testing
import TestSupport

/// Every command's stdout failing (a full disk, closed, a reader gone): one sentence on
/// stderr and exit status 1, never a crash and never exit 0 with the output lost.
@Suite(.serialized)
struct StandardOutputFailureTests {
    /// Where the command's stdout goes.
    enum Target: String, CaseIterable {
        case full = "/dev/full"
        case closed = "a closed descriptor"
        case brokenPipe = "a pipe nobody reads"

        /// The sentence `parley` should print on stderr.
        var sentence: String {
            switch self {
            case .full: "parley: cannot write to standard output: no space left on device\n"
            case .closed: "parley: cannot write to standard output: it was closed when Parley started\n"
            case .brokenPipe: "parley: cannot write to standard output: nothing reads it any more (broken pipe)\n"
            }
        }
    }

    /// Runs the built `parley` with `arguments` and its stdout on `target`; returns its exit status and stderr.
    static func run(_ arguments: [String], stdout target: Target) throws -> (status: Int32, stderr: String) {
        var environment = try TestAudioServer.environment()
        environment["NO_COLOR"] = "1"
        switch target {
        case .full, .closed:
            let redirection = target == .full ? ">/dev/full" : ">&-"
            let output = try ProcessRunner.run(["/bin/sh", "-c", "exec \"$0\" \"$@\" \(redirection)", ProcessRunner.parleyBinary]
                + arguments, environment: environment)
            return (output.status, output.stderr)
        case .brokenPipe:
            var ends: [Int32] = [0, 0]
            guard pipe(&ends) == 0 else { throw ProcessRunner.Failure(message: "pipe failed") }
            close(ends[0])
            defer { close(ends[1]) }
            let run = try ToolRun([ProcessRunner.parleyBinary] + arguments, environment: ProcessRunner.childEnvironment(environment),
                                  name: "parley", timeout: 120, errorLimit: .max, standardOutput: .descriptor(ends[1]))
            return (run.status, run.errors.text)
        }
    }

    /// A data directory with one glossary entry, English to Spanish.
    static func glossaryDirectory() throws -> URL {
        let directory = try Fixtures.temporaryDirectory("parley-stdout")
        let added = try ProcessRunner.parley(["glossary", "add", "en", "es", "train station", "estación de tren",
                                              "--dictionaries", directory.path])
        try #require(added.status == 0, "\(added.stderr)")
        return directory
    }

    @Test("translate, listen, listen --json, glossary export and list, languages and models: exit 1, one sentence",
          arguments: Target.allCases)
    func everyCommand(_ target: Target) throws {
        let glossary = try Self.glossaryDirectory()
        defer { try? FileManager.default.removeItem(at: glossary) }
        let recording = Fixtures.recording("goforward.raw")
        let commands: [[String]] = [
            ["translate", "--from", "en", "--to", "es", "Where is the train station?"],
            ["listen", "--recognizer", "pocketsphinx", "--file", recording],
            ["listen", "--recognizer", "pocketsphinx", "--file", recording, "--json"],
            ["glossary", "export", "en", "es", "--dictionaries", glossary.path],
            ["glossary", "list", "en", "es", "--dictionaries", glossary.path],
            ["languages"],
            ["models"],
        ]
        for arguments in commands {
            let result = try Self.run(arguments, stdout: target)
            let command = "parley \(arguments.prefix(2).joined(separator: " ")) to \(target.rawValue)"
            #expect(result.status == 1, "\(command): status \(result.status), \(result.stderr)")
            #expect(result.stderr == target.sentence, "\(command)")
        }
    }
}
