import ChildProcesses
import Foundation
import Testing

/// `ToolRun` on `/bin/sh` and `cat`.
@Suite struct ToolRunTests {
    /// A file of this test's own, removed at the end of `body`.
    static func withFile<T>(_ label: String, _ body: (String) throws -> T) rethrows -> T {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("parley-tool-run-\(label)-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: file) }
        return try body(file)
    }

    /// The pid a shell wrote into `file`.
    static func pid(in file: String) throws -> Int32 {
        try #require(Int32(try String(contentsOfFile: file, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)))
    }

    @Test("a tool run to its end gives its status, its output and its stderr")
    func runsToTheEnd() throws {
        // More stderr than a pipe holds before the output: both are read together, or it stalls.
        let run = try ToolRun(["/bin/sh", "-c", "yes e | head -c 200000 >&2; echo; echo 'last problem' >&2; echo out; exit 7"],
                              name: "the tool", timeout: 60)
        #expect(run.status == 7 && run.termination == .exited(7))
        #expect(run.outputText == "\nout\n")
        #expect(run.errors.lastLine == "last problem" && run.errors.bytes.count == 4096)
    }

    @Test("the input is fed while the output is read, and a tool that does not read it is no failure")
    func feedsItsInput() throws {
        // 1 MiB each way: the write and the read interleave, or both pipes fill and it hangs.
        let long = [UInt8]((0..<(1 << 20)).map { UInt8(truncatingIfNeeded: $0 % 251) })
        #expect(try ToolRun(["cat"], input: long, name: "cat", timeout: 60, errorLimit: 16).output == long)
        #expect(try ToolRun(["true"], input: long, name: "true", timeout: 60).termination == .exited(0))
    }

    @Test("a tool ended by a signal says which")
    func signalled() throws {
        let run = try ToolRun(["/bin/sh", "-c", "kill -TERM $$"], name: "the tool", timeout: 60)
        #expect(run.termination == .signalled(SIGTERM) && run.status == 128 + SIGTERM)
    }

    @Test("a tool that runs past its time is killed with its group and reaped")
    func timesOut() async throws {
        let sleeper = try Self.withFile("sleeper") { file in
            #expect(throws: ChildProcessFailure("the tool", .timedOut(seconds: 0.5))) {
                try ToolRun(["/bin/sh", "-c", "sleep 1000 & echo $! > \(file); wait"], name: "the tool", timeout: 0.5)
            }
            return try Self.pid(in: file)
        }
        #expect(try await Children.eventually { !Children.isRunning(sleeper) }, "the tool's sleep outlived the timeout")
    }

    @Test("a tool past its time is ended as its teardown says: SIGTERM first lets it clean up")
    func timeoutTeardown() throws {
        Self.withFile("cleaned") { file in
            #expect(throws: ChildProcessFailure("the tool", .timedOut(seconds: 0.5))) {
                try ToolRun(["/bin/sh", "-c", "trap 'echo cleaned > \(file); exit 0' TERM; while :; do sleep 0.05; done"],
                            name: "the tool", timeout: 0.5, teardown: .terminate(grace: 30))
            }
            #expect((try? String(contentsOfFile: file, encoding: .utf8)) == "cleaned\n")
        }
    }

    @Test("output held open by a process the tool left running is given up on, and the process left alone")
    func outputHeldOpen() throws {
        try Self.withFile("holder") { file in
            let failure = #expect(throws: ChildProcessFailure("the tool", .outputHeldOpen)) {
                try ToolRun(["/bin/sh", "-c", "sleep 1000 & echo $! > \(file); echo started"], name: "the tool",
                            timeout: 60, outputGrace: 0.5)
            }
            #expect(failure?.description == "the tool exited, but a process it started still holds its output open")
            let holder = try Self.pid(in: file)
            #expect(Children.isRunning(holder))
            kill(holder, SIGKILL)
        }
    }

    @Test("standard output can go to a descriptor of the caller's")
    func outputElsewhere() throws {
        try Self.withFile("output") { file in
            let descriptor = open(file, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
            try #require(descriptor >= 0)
            defer { close(descriptor) }
            let run = try ToolRun(["/bin/sh", "-c", "echo into the file; echo note >&2"], name: "the tool", timeout: 60,
                                  standardOutput: .descriptor(descriptor))
            #expect(run.output.isEmpty && run.errors.text == "note\n")
            #expect(try String(contentsOfFile: file, encoding: .utf8) == "into the file\n")
        }
    }
}
