import ChildProcesses
import Foundation
import Testing

/// `FramedChild` on the fake worker (`Tests/Fixtures/fake-worker.py`), a real process.
@Suite struct FramedChildTests {
    @Test("the greeting comes first, and each answer reaches the request it names, concurrent ones too")
    func answersReachTheirRequests() async throws {
        let child = try Children.fake("answer")
        defer { child.close() }
        let greeting = try #require(Children.json(try await child.greeting(timeout: 30)))
        #expect(greeting["ready"] as? Bool == true && greeting["pid"] as? Int == Int(child.pid))
        let first = try await child.send(try Children.request(id: 1, payload: 80 * 3 * 4, mels: 80, frames: 3), id: 1, timeout: 30)
        #expect(Children.json(first)?["id"] as? Int == 1)
        #expect(Children.json(first)?["text"] as? String == "transcribe en consistent")
        async let second = child.send(try Children.request(id: 2), id: 2, timeout: 30)
        async let third = child.send(try Children.request(id: 3, payload: 8), id: 3, timeout: 30)
        let (two, three) = try await (second, third)
        #expect(Children.json(two)?["id"] as? Int == 2 && Children.json(two)?["text"] as? String == "transcribe en consistent")
        #expect(Children.json(three)?["id"] as? Int == 3 && Children.json(three)?["text"] as? String == "transcribe en inconsistent")
    }

    @Test("an answer to another request puts the child out of step: it is killed and reaped")
    func wrongIDIsOutOfStep() async throws {
        let child = try Children.fake("wrong-id")
        _ = try await child.greeting(timeout: 30)
        let failure = await #expect(throws: ChildProcessFailure.self) {
            try await child.send(try Children.request(id: 1), id: 1, timeout: 30)
        }
        #expect(failure?.kind == .outOfStep("an answer to request 1001 that nobody waits for"))
        #expect(try await Children.eventually { Children.state(child.pid) == nil }, "the child is neither killed nor reaped")
    }

    @Test("output that is no frame is out of step, in one sentence")
    func garbageIsOutOfStep() async throws {
        let child = try Children.fake("garbage")
        _ = try await child.greeting(timeout: 30)
        let failure = await #expect(throws: ChildProcessFailure.self) {
            try await child.send(try Children.request(id: 1), id: 1, timeout: 30)
        }
        guard case let .outOfStep(detail) = failure?.kind else {
            Issue.record("\(String(describing: failure))")
            return
        }
        #expect(detail.hasPrefix("a frame of ") && detail.hasSuffix("bytes, over the limit of 1048576"), "\(detail)")
        #expect(failure?.description == "the fake worker answered out of step (\(detail))")
    }

    @Test("a request not answered in time kills the child and everything in its process group")
    func timeoutKillsTheGroup() async throws {
        let child = try Children.fake("grandchild")
        let greeting = try #require(Children.json(try await child.greeting(timeout: 30)))
        let grandchild = try #require(greeting["grandchild"] as? Int).int32
        #expect(Children.isRunning(grandchild))
        let failure = await #expect(throws: ChildProcessFailure.self) {
            try await child.send(try Children.request(id: 1), id: 1, timeout: 1)
        }
        #expect(failure == ChildProcessFailure("the fake worker", .timedOut(seconds: 1)))
        #expect(failure?.description == "the fake worker gave no answer within 1 second")
        #expect(try await Children.eventually { !Children.isRunning(grandchild) }, "the grandchild outlived the timeout")
        #expect(try await Children.eventually { Children.state(child.pid) == nil }, "the child was not reaped")
        // A failed child fails every later request at once, with the first failure.
        await #expect(throws: ChildProcessFailure("the fake worker", .timedOut(seconds: 1))) {
            try await child.send(try Children.request(id: 2), id: 2, timeout: 30)
        }
    }

    @Test("a child that ends in the middle of an answer fails the request with its status and last stderr line")
    func exitMidAnswer() async throws {
        let child = try Children.fake("half-answer")
        _ = try await child.greeting(timeout: 30)
        await #expect(throws: ChildProcessFailure("the fake worker",
                                                  .exited(status: 3, stderrTail: "fake worker: stopping mid-answer"))) {
            try await child.send(try Children.request(id: 1), id: 1, timeout: 30)
        }
        #expect(Children.state(child.pid) == nil, "the child was not reaped")
    }

    @Test("a child that floods stderr and dies is reported by its last line")
    func stderrFlood() async throws {
        let child = try Children.fake("stderr-flood")
        let failure = await #expect(throws: ChildProcessFailure.self) { try await child.greeting(timeout: 30) }
        #expect(failure?.kind == .exited(status: 5, stderrTail: "last words"))
        #expect(failure?.description == "the fake worker stopped (status 5): last words")
    }

    @Test("a child inherits no descriptor but its three pipes, though the parent holds others open")
    func noInheritedDescriptors() async throws {
        let inheritable = open("/dev/null", O_RDONLY)  // without O_CLOEXEC
        defer { close(inheritable) }
        let other = try Children.fake("hang")  // its pipe ends are open in the parent too
        defer { other.terminate() }
        let child = try Children.fake("fds")
        defer { child.close() }
        let greeting = try #require(Children.json(try await child.greeting(timeout: 30)))
        #expect(inheritable > 2)
        #expect(greeting["fds"] as? [Int] == [0, 1, 2])
    }

    @Test("terminate and close leave no zombie")
    func noZombies() async throws {
        let killed = try Children.fake("hang"), closed = try Children.fake("answer")
        _ = try await (killed.greeting(timeout: 30), closed.greeting(timeout: 30))
        killed.terminate()
        closed.close()
        #expect(try await Children.eventually { Children.state(killed.pid) == nil }, "the killed child is left a zombie")
        #expect(try await Children.eventually { Children.state(closed.pid) == nil }, "the closed child is left a zombie")
    }
}

extension Int {
    var int32: Int32 { Int32(self) }
}
