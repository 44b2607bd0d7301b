@testable import WhisperRecognition
import Testing

/// `DecodeTurns`: one decode at a time, channels in turn, each channel in its own order.
@Suite("Decode turns")
struct DecodeTurnsTests {
    /// Runs `arrivals` (channel, name) while one decode runs, then finishes decodes until none
    /// waits: the names in the order they ran.
    private func served(_ arrivals: [(String, String)], running first: String = "first") -> [String] {
        var turns = DecodeTurns<String>()
        let ranAtOnce = turns.arrive(first, first)
        #expect(ranAtOnce, "an idle worker runs the first request at once")
        for (channel, name) in arrivals {
            let ran = turns.arrive(channel, name)
            #expect(!ran, "\(name) waits while a decode runs")
        }
        var order: [String] = []
        while let next = turns.finish() { order.append(next) }
        #expect(!turns.busy && turns.waitingCount == 0)
        return order
    }

    @Test("a party with many decodes waiting delays another by one decode of theirs, not by all")
    func channelsTakeTurns() {
        let order = served([("party 1", "1a"), ("party 1", "1b"), ("party 1", "1c"), ("party 2", "2a"), ("party 2", "2b")],
                           running: "party 1")
        #expect(order == ["2a", "1a", "2b", "1b", "1c"])
    }

    @Test("three channels go round in the order they first waited; a channel that comes back later joins the round at its end")
    func threeChannels() {
        var turns = DecodeTurns<String>()
        let ran = turns.arrive("a", "a1")
        #expect(ran)
        for (channel, name) in [("a", "a2"), ("b", "b1"), ("c", "c1"), ("b", "b2")] { _ = turns.arrive(channel, name) }
        var order = [turns.finish(), turns.finish()].compactMap { $0 }  // b1 after a1, then c1
        _ = turns.arrive("d", "d1")
        while let next = turns.finish() { order.append(next) }
        #expect(order == ["b1", "c1", "a2", "b2", "d1"])
    }

    @Test("one channel alone keeps its order, and an idle worker serves at once")
    func oneChannel() {
        #expect(served([("", "2"), ("", "3")], running: "") == ["2", "3"])
        var turns = DecodeTurns<String>()
        let first = turns.arrive("x", "1")
        let next = turns.finish()
        #expect(first && next == nil && !turns.busy)
        let again = turns.arrive("y", "2")
        #expect(again, "idle again: the next request runs at once")
    }
}
