import ParleyCore
import Testing

@Suite struct BoundedWaitTests {
    @Test("a wait that never ends is given up at its bound, named")
    func neverEnding() async {
        let abandoned = await waitAtMost(0.2, "the server did not answer") {
            await withCheckedContinuation { (_: CheckedContinuation<Void, Never>) in }  // never resumed
        }
        #expect(abandoned == WaitAbandoned(what: "the server did not answer", seconds: 0.2))
        #expect(abandoned?.description == "the server did not answer within 0.2 s")
    }

    @Test("a wait that ends in time gives its result, and its error")
    func inTime() async throws {
        #expect(await waitAtMost(5, "nothing") {} == nil)
        #expect(try await withDeadline(seconds: 5, "nothing") { 42 } == 42)
        struct Failure: Error {}
        await #expect(throws: Failure.self) { try await withDeadline(seconds: 5, "nothing") { throw Failure() } }
    }

    @Test("the operation given up is cancelled")
    func cancelsTheOperation() async throws {
        let (cancelled, continuation) = AsyncStream.makeStream(of: Bool.self)
        _ = await waitAtMost(0.1, "the sleep did not end") {
            let slept = (try? await Task.sleep(for: .seconds(30))) != nil
            continuation.yield(!slept)
        }
        var iterator = cancelled.makeAsyncIterator()
        #expect(await iterator.next() == true)
    }
}
