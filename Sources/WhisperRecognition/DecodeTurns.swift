/// Whose decode the worker runs next: one at a time, and among the channels waiting
/// (`RecognitionOptions.channel`, a room's parties), each in turn.
///
/// Within a channel, requests go in the order they came. Across channels, the next turn goes
/// to the first channel after the last one served, in the order the channels first waited,
/// so a party that asks for many decodes in a row (a long utterance's partials) delays
/// another party by at most one decode of theirs.
struct DecodeTurns<Waiter> {
    /// Whether a decode is running.
    private(set) var busy = false
    /// Channels with requests waiting, in the order they first waited, each with its waiters in order.
    private var waiting: [(channel: String, waiters: [Waiter])] = []
    /// The channel served last.
    private var lastServed: String?

    /// How many requests wait.
    var waitingCount: Int { waiting.reduce(0) { $0 + $1.waiters.count } }

    /// A request of `channel` arrives: true when it runs now; otherwise `waiter` waits for its turn.
    mutating func arrive(_ channel: String, _ waiter: Waiter) -> Bool {
        guard busy else {
            busy = true
            lastServed = channel
            return true
        }
        if let index = waiting.firstIndex(where: { $0.channel == channel }) {
            waiting[index].waiters.append(waiter)
        } else {
            waiting.append((channel, [waiter]))
        }
        return false
    }

    /// The running decode finished: the waiter whose turn it is now, or nil when none waits.
    mutating func finish() -> Waiter? {
        guard !waiting.isEmpty else {
            busy = false
            return nil
        }
        // The first channel after the last one served, in the waiting order; else the first.
        let served = waiting.firstIndex { $0.channel == lastServed }
        let index = served.map { ($0 + 1) % waiting.count } ?? 0
        let channel = waiting[index].channel
        let waiter = waiting[index].waiters.removeFirst()
        if waiting[index].waiters.isEmpty {
            waiting.remove(at: index)
            // The channel just served has left the list: its place goes to the next one.
            lastServed = nil
            if !waiting.isEmpty { rotate(to: index % waiting.count) }
        } else {
            lastServed = channel
        }
        return waiter
    }

    /// Puts the channel at `index` first, keeping the order after it.
    private mutating func rotate(to index: Int) {
        waiting = Array(waiting[index...] + waiting[..<index])
    }
}
