import ChildProcesses
import Foundation
import Testing

/// `RestartOnce` with real children: a request whose child died goes once to a fresh child.
@Suite struct RestartOnceTests {
    /// Starts `scripts[n]` for the nth attempt and asks it to echo a line.
    final class Attempts {
        let scripts: [String]
        var started: [StreamChild] = []
        var discarded: [(ChildProcessFailure.Kind, Bool)] = []

        init(_ scripts: [String]) { self.scripts = scripts }

        func attempt() throws -> [UInt8] {
            let child = try StreamChild(["/bin/sh", "-c", scripts[min(started.count, scripts.count - 1)]],
                                        name: "the child", delimiter: UInt8(ascii: "\n"))
            started.append(child)
            return try child.exchange(Array("hello\n".utf8), timeout: 30, limit: 100)
        }

        func run() throws -> [UInt8] {
            try RestartOnce.run(attempt) { failure, retrying in
                discarded.append((failure.kind, retrying))
                started.last?.terminate(grace: 0)
            }
        }
    }

    @Test("a child that dies is replaced once and the request answered by the fresh one")
    func restartsOnce() throws {
        let attempts = Attempts(["exit 3", "exec cat"])
        #expect(try attempts.run() == Array("hello".utf8))
        #expect(attempts.started.count == 2)
        #expect(attempts.discarded.map(\.1) == [true])
        for child in attempts.started { child.terminate() }
    }

    @Test("a second failure is reported, and no third child is started")
    func failsAfterOneRestart() throws {
        let attempts = Attempts(["echo dying >&2; exit 3"])
        let failure = #expect(throws: ChildProcessFailure.self) { try attempts.run() }
        guard case let .exited(_, tail) = failure?.kind else {
            Issue.record("\(String(describing: failure))")
            return
        }
        #expect(tail == "dying")
        #expect(attempts.started.count == 2)
        #expect(attempts.discarded.map(\.1) == [true, false])
    }
}
