import Foundation

/// A short connection to the server on its own single-threaded libpulse mainloop, run on
/// the calling thread: for `parley doctor`, start-up checks and the echo canceller's
/// loading and unloading, never for the conversation's streams. Every wait ends by the
/// deadline given at the start; the context disconnects when the object goes.
final class OneShotConnection {
    private let mainloop: PulseMainloop
    let context: PulseContext
    private let deadline: Date

    /// Connects to `server` (nil: `$PULSE_SERVER` or the default) as `name`, showing `cookie`
    /// when given; every wait of this connection, connecting included, ends within
    /// `timeout` seconds of now.
    init(server: String?, name: String, timeout: Double, cookie: PulseCookie? = nil) throws {
        guard let mainloop = PulseMainloop() else {
            throw AudioServerUnavailable(server: server, reason: "libpulse could not create a mainloop")
        }
        guard let context = PulseContext(api: mainloop.api, name: name, cookie: cookie) else {
            throw AudioServerUnavailable(server: server, reason: "libpulse could not create a context")
        }
        (self.mainloop, self.context) = (mainloop, context)
        deadline = Date().addingTimeInterval(timeout)
        do {
            try context.connect(server: server)
        } catch {
            throw AudioServerUnavailable(server: server, reason: String(describing: error))
        }
        let settled = iterate { context.state != .pending }
        guard settled, context.state == .ready else {
            context.disconnect()
            throw AudioServerUnavailable(server: server, reason: settled ? context.lastError.description : "timed out")
        }
    }

    deinit { context.disconnect() }

    /// Runs the mainloop until `done`; false when the deadline came first.
    func iterate(until done: () -> Bool) -> Bool {
        while !done() {
            guard Date() < deadline else { return false }
            mainloop.prepare(timeoutMicroseconds: 50_000)
            mainloop.poll()
            mainloop.dispatch()
        }
        return true
    }

    /// Starts one request with `start` and waits for its one answer; nil when the request
    /// could not start, the connection failed or the deadline came first.
    func answer<Value>(_ start: (PulseContext, @escaping (Value) -> Void) -> PulseOperation?) -> Value? {
        let box = AnswerBox<Value>()
        guard let operation = start(context, { box.values.append($0) }) else { return nil }
        _ = iterate { !box.values.isEmpty || !operation.isRunning }
        return box.values.first
    }

    /// Starts one list request with `start` and collects its items up to the ending nil;
    /// nil when the list did not end by the deadline.
    func list<Item>(_ start: (PulseContext, @escaping (Item?) -> Void) -> PulseOperation?) -> [Item]? {
        let box = AnswerBox<Item?>()
        guard let operation = start(context, { box.values.append($0) }) else { return nil }
        let ended = iterate { box.values.last.map { $0 == nil } ?? false || !operation.isRunning }
        guard ended, box.values.last.map({ $0 == nil }) ?? false else { return nil }
        return box.values.compactMap { $0 }
    }
}

/// What a request's callback delivered, read after the mainloop ran (one thread throughout).
private final class AnswerBox<Value> {
    var values: [Value] = []
}
