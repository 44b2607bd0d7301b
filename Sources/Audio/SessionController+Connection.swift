import Dispatch
import ParleyCore

/// Connecting, losing the server, reconnecting, closing.
extension SessionController {
    /// Connects a new context and creates both streams; returns once both are ready.
    /// On failure the half-made connection is torn down and the phase becomes `failurePhase`.
    func connect(failurePhase: Phase) async throws {
        do {
            try await chooseDevices(opening: failurePhase == .new)
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                mainloop.withLock {
                    guard phase != .closed else { return continuation.resume(throwing: AudioSessionError.notOpen) }
                    precondition(connectWaiter == nil, "one connection attempt at a time")
                    connectWaiter = continuation
                    phase = .connecting
                    if let failure = startContext() { failConnect(failure) }
                }
            }
        } catch {
            mainloop.withLock {
                teardownConnection()
                if phase != .closed { phase = failurePhase }
            }
            throw error
        }
    }

    /// Creates the context and starts connecting; the callbacks hold the engine unowned
    /// (the session keeps it alive until the mainloop has stopped).
    private func startContext() -> (any Error)? {
        if let connection { return connection.join(self) }
        guard let context = PulseContext(api: mainloop.api, applicationName: options.applicationName, cookie: options.cookie) else {
            return AudioServerUnavailable(server: options.server, reason: "libpulse could not create a context")
        }
        ownContext = context
        context.onStateChange { [unowned self] in contextStateChanged() }
        do {
            try context.connect(server: options.server)
            return nil
        } catch {
            return AudioServerUnavailable(server: options.server, reason: contextError())
        }
    }

    /// The server this session connects to: its shared connection's, or its own.
    var server: String? { connection.map(\.server) ?? options.server }

    /// The context's state callback (mainloop thread); a shared connection's calls it for
    /// every session on it.
    func contextStateChanged() {
        guard let context else { return }
        switch context.state {
        case .ready where phase == .connecting:
            if !wantsStreams {
                connectionReady()
            } else if let failure = createStreams(on: context) {
                failConnect(failure)
            }
        case .failed, .terminated:
            let reason = contextError()
            if phase == .connecting {
                failConnect(AudioServerUnavailable(server: server, reason: reason))
            } else if phase == .ready {
                connectionLost("the connection to the audio server failed: \(reason)")
            }
        default:
            break
        }
    }

    /// A stream's state callback (mainloop thread).
    func streamStateChanged(_ stream: PulseStream) {
        switch stream.state {
        case .ready where phase == .connecting:
            guard recordStream?.state == .ready, playback.stream?.state == .ready,
                  guardStream == nil || guardStream?.state == .ready else { return }
            if let missing = devices.substitution(record: recordStream?.deviceName, playback: playback.stream?.deviceName) {
                return failConnect(missing)
            }
            connectionReady()
        case .failed, .terminated:
            let failure = streamFailure(stream)
            if phase == .connecting {
                failConnect(failure)
            } else if phase == .ready {
                connectionLost(String(describing: failure))
            }
        default:
            break
        }
    }

    private func connectionReady() {
        phase = .ready
        gate = CaptureGate(closesDuringPlayback: devices.gatesCaptureDuringPlayback, listening: gate.isListening)
        playback.isInterrupted = false
        if wantsStreams {
            let devices = "capture from \(deviceName(recordStream)), playback to \(deviceName(playback.stream))"
            logger.info("audio session ready: \(devices)")
        }
        connectWaiter?.resume()
        connectWaiter = nil
    }

    private func deviceName(_ stream: PulseStream?) -> String {
        stream?.deviceName ?? "?"
    }

    /// The connection attempt failed: callbacks stop, the waiting `connect` throws and tears down.
    private func failConnect(_ error: any Error) {
        detachCallbacks()
        connectWaiter?.resume(throwing: error)
        connectWaiter = nil
    }

    /// The server (or one of our streams) went away while the session was ready.
    private func connectionLost(_ reason: String) {
        phase = .lost
        detachCallbacks()
        playback.abandon(throwing: AudioSessionError.serverLost)
        logger.warning("audio server lost: \(reason); reconnecting")
        report(.serverLost(reason))
        Task { await self.reconnect() }
    }

    /// Tries to connect again with a doubling delay until it works or the session closes.
    private func reconnect() async {
        var delay = options.reconnectInitialDelay
        while true {
            try? await Task.sleep(for: .seconds(delay))
            let stillLost = mainloop.withLock {
                guard phase == .lost else { return false }
                teardownConnection()
                return true
            }
            guard stillLost else { return }
            do {
                try await connect(failurePhase: .lost)
                break
            } catch {
                logger.debug("reconnection failed: \(error); next try in \(delay * 2) s")
                delay = min(delay * 2, options.reconnectMaximumDelay)
            }
        }
        updateObserved { $0.metrics.reconnections += 1 }
        logger.info("audio server back; streams recreated")
        report(.reconnected)
    }

    /// Ends the session: streams and context go, waiters return, the mainloop thread stops
    /// (a shared connection's, with its last session).
    func close() async {
        guard beginClose() else { return }
        await unloadCanceller()
        if connection?.sessionClosed() ?? true {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                DispatchQueue.global().async {
                    self.mainloop.stop()
                    continuation.resume()
                }
            }
        }
        capture.finish()
        eventSink.finish()
    }

    /// `close()` for a session being deinitialized: stops the mainloop on the calling thread.
    func closeNow() {
        guard beginClose() else { return }
        unloadCancellerNow()
        if connection?.sessionClosed() ?? true { mainloop.stop() }
        capture.finish()
        eventSink.finish()
    }

    /// Marks the session closed and tears the connection down; false when it was closed already.
    private func beginClose() -> Bool {
        mainloop.withLock {
            guard phase != .closed else { return false }
            phase = .closed
            connectWaiter?.resume(throwing: AudioSessionError.notOpen)
            connectWaiter = nil
            playback.abandon(throwing: nil)
            teardownConnection()
            return true
        }
    }

    /// Stops every callback of the current context and streams (they may be failing right now).
    private func detachCallbacks() {
        for stream in [recordStream, playback.stream, guardStream, referenceStream].compactMap({ $0 }) {
            stream.clearCallbacks()
        }
        if let connection { connection.stopFollowing(self) } else { ownContext?.onStateChange(nil) }
    }

    /// Disconnects and releases the context and streams. Never called from their own callbacks.
    /// Dropping the wrappers drops libpulse's references: streams first, then the context.
    func teardownConnection() {
        detachCallbacks()
        playback.cancelDrainOperation()
        for stream in [recordStream, playback.stream, guardStream, referenceStream].compactMap({ $0 }) where stream.state == .ready {
            stream.disconnect()
        }
        guardStream = nil
        referenceStream = nil
        echoSubtraction = nil
        recordStream = nil
        playback.stream = nil
        if let connection {
            connection.leave(self)
        } else {
            ownContext?.disconnect()
            ownContext = nil
        }
    }
}
