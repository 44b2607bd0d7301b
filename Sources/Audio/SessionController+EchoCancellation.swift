import ParleyCore

/// The devices a connection's streams open, and the echo canceller between them.
///
/// A canceller is a module on the server: it dies with the server, so a session that records
/// and plays through one loads it again at every connection. When the server refuses it after
/// a reconnection, the session records and plays on the devices behind it, closes the
/// microphone while it speaks, and says so once (`AudioEvent.echoCancellationLost`).
struct StreamDevices: Sendable, Equatable {
    /// The record stream's device (nil: the server's default).
    var source: String?
    /// The playback stream's device (nil: the server's default).
    var sink: String?
    /// The echo guard's own stream on the microphone behind a canceller, when there is one.
    var guardsMicrophone = false
    /// That microphone (nil: the server's default source).
    var guardSource: String?
    /// The speaker's monitor behind a canceller, recorded as the reference for `EchoSubtraction`.
    var referenceSource: String?
    /// Whether capture is discarded while the machine speaks.
    var gatesCaptureDuringPlayback: Bool

    /// The devices the options name, with no canceller.
    init(_ options: AudioSessionOptions) {
        source = options.source
        sink = options.sink
        gatesCaptureDuringPlayback = options.gatesCaptureDuringPlayback
    }

    /// Through `canceller`, loaded between the devices the options name.
    init(_ options: AudioSessionOptions, through canceller: EchoCanceller) {
        source = canceller.source
        sink = canceller.sink
        guardsMicrophone = true
        guardSource = options.source
        referenceSource = options.sink.map { "\($0).monitor" } ?? "@DEFAULT_MONITOR@"
        gatesCaptureDuringPlayback = false
    }
}

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
