import ChildProcesses
import Foundation
import Testing

/// `StreamChild` and `SpawnedProcess` on `/bin/sh` and `cat`.
@Suite struct StreamChildTests {
    static let newline = UInt8(ascii: "\n")

    static func shell(_ script: String, name: String = "the shell") throws -> StreamChild {
        try StreamChild(["/bin/sh", "-c", script], name: name, delimiter: newline)
    }

    @Test("each answer ends at the delimiter, a request far larger than a pipe included")
    func answersEndAtTheDelimiter() throws {
        let child = try Self.shell("cat | cat")
        defer { child.terminate() }
        #expect(try child.exchange(Array("one\n".utf8), timeout: 30, limit: 100) == Array("one".utf8))
        // 1 MiB in and out: the write and the read interleave, or both pipes fill and it hangs.
        let long = [UInt8](repeating: UInt8(ascii: "a"), count: 1 << 20)
        #expect(try child.exchange(long + [Self.newline], timeout: 60, limit: 2 << 20) == long)
        #expect(!child.isOutOfStep)
    }

    @Test("an answer that grows past the limit without its delimiter fails")
    func answerTooLong() throws {
        let child = try StreamChild(["yes"], name: "yes", delimiter: 0)
        defer { child.terminate() }
        #expect(throws: ChildProcessFailure("yes", .answerTooLong(bytes: 1000))) {
            try child.exchange([], timeout: 30, limit: 1000)
        }
    }

    @Test("a child that ends fails the exchange with its last stderr line")
    func exitIsReported() throws {
        let child = try Self.shell("read line; echo 'first' >&2; echo 'stage: cannot go on' >&2; exit 4", name: "the pipeline")
        defer { child.terminate() }
        let failure = #expect(throws: ChildProcessFailure.self) { try child.exchange(Array("x\n".utf8), timeout: 30, limit: 100) }
        guard case let .exited(_, stderrTail) = failure?.kind else {
            Issue.record("\(String(describing: failure))")
            return
        }
        #expect(stderrTail == "stage: cannot go on")
    }

    @Test("a timed-out child is ended with its whole group, which leaves no zombie of ours")
    func timeoutAndTerminate() async throws {
        let child = try Self.shell("sleep 1000 & wait")
        #expect(throws: ChildProcessFailure("the shell", .timedOut(seconds: 0.5))) {
            try child.exchange(Array("x\n".utf8), timeout: 0.5, limit: 100)
        }
        let group = child.processGroup
        #expect(Children.members(ofGroup: group).count == 2, "the shell and its sleep")
        child.terminate(grace: 0.2)
        #expect(Children.state(group) == nil, "the shell is not reaped")
        // SIGKILL lands a moment after kill() returns.
        #expect(try await Children.eventually { Children.members(ofGroup: group).allSatisfy { !Children.isRunning($0) } },
                "a stage outlived terminate")
    }

    @Test("closing the input ends a pipeline by itself: every stage exits and is reaped")
    func gracefulEnd() throws {
        let child = try Self.shell("cat | cat | cat")
        #expect(try child.exchange(Array("warm\n".utf8), timeout: 30, limit: 100) == Array("warm".utf8))
        let group = child.processGroup
        #expect(Children.members(ofGroup: group).count == 4)
        child.terminate(grace: 30)
        #expect(Children.members(ofGroup: group).isEmpty, "a stage is left, running or a zombie")
    }

    @Test("stderr written with an answer is taken once, what is waiting included")
    func stderrIsTakenOnce() throws {
        let child = try Self.shell("while read line; do echo \"note $line\" >&2; echo \"$line\"; done")
        defer { child.terminate() }
        _ = try child.exchange(Array("a\n".utf8), timeout: 30, limit: 100)
        _ = try child.exchange(Array("b\n".utf8), timeout: 30, limit: 100)
        #expect(child.takeErrorOutput() == "note a\nnote b\n")
        #expect(child.takeErrorOutput() == "")
    }

    @Test("a program that does not exist cannot be started, in one sentence")
    func couldNotStart() {
        let failure = #expect(throws: ChildProcessFailure.self) {
            try StreamChild(["/nonexistent/tool"], name: "the tool", delimiter: 0)
        }
        #expect(failure?.description == "the tool could not be started: /nonexistent/tool: No such file or directory")
    }

    @Test("the stderr tail keeps the last bytes only")
    func stderrTailIsBounded() {
        var tail = StderrTail(limit: 100)
        for line in 0..<10_000 { tail.append(Array("line \(line)\n".utf8)) }
        #expect(tail.bytes.count == 100)
        #expect(tail.lastLine == "line 9999")
        tail.append([UInt8](repeating: UInt8(ascii: "x"), count: 1_000))
        #expect(tail.bytes == [UInt8](repeating: UInt8(ascii: "x"), count: 100))
    }
}
