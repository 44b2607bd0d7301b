import ParleyCore

/// Loading and unloading the echo canceller between the conversation's devices (see
/// `StreamDevices`).
extension SessionController {
    /// Chooses the devices of the next connection: through a canceller loaded now, when the
    /// options ask for one. `opening`: the first connection, where a refused canceller is
    /// thrown (`EchoCancellerUnavailable`: the caller decides); after a reconnection the
    /// session goes on without it and reports that once. Throws `AudioServerUnavailable`
    /// while the server cannot be reached.
    func chooseDevices(opening: Bool) async throws {
        guard wantsStreams, let cancellation = options.echoCancellation else { return }
        let previous = mainloop.withLock {
            defer { canceller = nil }
            return canceller
        }
        // A canceller of a server that stayed up (a stream of ours failed) would be left behind;
        // once asked, it is not asked again at the next attempt.
        if let previous { await previous.unloading(server: server, cookie: options.cookie) }
        do {
            let loaded = try await EchoCanceller.loading(server: server, source: options.source, sink: options.sink,
                                                         cookie: options.cookie, tag: cancellation.tag)
            let stillOpen = mainloop.withLock {
                guard phase != .closed else { return false }
                canceller = loaded
                devices = StreamDevices(options, through: loaded)
                return true
            }
            // Closed while it loaded: nobody else will unload it.
            if !stillOpen { await loaded.unloading(server: server, cookie: options.cookie) }
        } catch let refused as EchoCancellerUnavailable where !opening {
            let wasCancelling = mainloop.withLock {
                defer { devices = StreamDevices(options) }
                return devices.guardsMicrophone
            }
            logger.warning("\(refused); recording and playing on the devices behind it")
            if wasCancelling { report(.echoCancellationLost(refused.reason)) }
        }
    }

    /// Unloads the canceller the session loaded, if any; at close.
    func unloadCanceller() async {
        let loaded = mainloop.withLock {
            defer { canceller = nil }
            return canceller
        }
        await loaded?.unloading(server: server, cookie: options.cookie)
    }

    /// `unloadCanceller` on the calling thread, for a session being deinitialized.
    func unloadCancellerNow() {
        let loaded = mainloop.withLock {
            defer { canceller = nil }
            return canceller
        }
        _ = loaded?.unload(server: server, cookie: options.cookie)
    }
}
