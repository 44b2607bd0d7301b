/// One connection to an audio server that several sessions share: a room's parties on one
/// server, or the two sides of a dialogue with a headset each. One context on one mainloop
/// thread; each session keeps its own record and playback streams on it.
///
/// ```swift
/// let connection = AudioConnection(server: "tcp:studio:4713", cookie: try PulseCookie(readingFile: "/home/me/studio-cookie"))
/// let first = AudioSession(options: options, connection: connection, logger: logger)
/// let second = AudioSession(options: otherOptions, connection: connection, logger: logger)
/// ```
///
/// A session on it opens, loses and recovers the server as a session of its own does
/// (`AudioSession`): when the server goes, every session on the connection reports
/// `serverLost`, the first one to reconnect makes the new connection and the others join it.
/// A session's own stream failing (its device removed) does not touch the others. The
/// connection ends when its last session closes; the sessions' own `server` and `cookie`
/// options are not used.
public final class AudioConnection: @unchecked Sendable {  // every stored var: the mainloop lock
    /// The server (nil: `$PULSE_SERVER` or the default) and the cookie it wants (nil: libpulse's own).
    public let server: String?
    public let cookie: PulseCookie?
    let applicationName: String
    let mainloop = ThreadedMainloop()

    // Guarded by the mainloop lock.
    /// The context, while a session has one to share (connecting, ready, or failed until the
    /// sessions have left it).
    private(set) var context: PulseContext?
    /// The sessions whose streams are on the context, or that wait for it to be ready.
    private var members: [ObjectIdentifier: Member] = [:]
    /// Sessions created on the connection and not closed yet.
    private var openSessions = 0

    private struct Member {
        unowned let controller: SessionController
    }

    /// A connection to `server`; nothing is connected until a session opens.
    public init(server: String? = nil, cookie: PulseCookie? = nil, applicationName: String = "Parley") {
        (self.server, self.cookie, self.applicationName) = (server, cookie, applicationName)
    }

    /// A session was made on the connection (`SessionController.init`).
    func sessionCreated() {
        mainloop.withLock { openSessions += 1 }
    }

    /// A session closed; true when it was the last one, and the mainloop is then to stop.
    func sessionClosed() -> Bool {
        mainloop.withLock {
            openSessions -= 1
            return openSessions == 0
        }
    }

    /// `member` wants the context (mainloop lock held): a ready one is handed over at once
    /// (the member creates its streams now), a connecting one when it is ready, and when there
    /// is none or only a failed one, a new one is made and connected. Nil, or why no
    /// connection could be started.
    func join(_ member: SessionController) -> (any Error)? {
        members[ObjectIdentifier(member)] = Member(controller: member)
        if let context, context.state != .failed, context.state != .terminated {
            if context.state == .ready { member.contextStateChanged() }
            return nil
        }
        dropContext()
        guard let made = PulseContext(api: mainloop.api, applicationName: applicationName, cookie: cookie) else {
            return AudioServerUnavailable(server: server, reason: "libpulse could not create a context")
        }
        context = made
        made.onStateChange { [unowned self] in
            // Every member hears the context's news; each acts on it as its phase says.
            for member in members.values { member.controller.contextStateChanged() }
        }
        do {
            try made.connect(server: server)
            return nil
        } catch {
            return AudioServerUnavailable(server: server, reason: made.lastError.description)
        }
    }

    /// `member` no longer acts on the context's news (mainloop lock held): it failed to
    /// connect, or lost its streams, and will leave.
    func stopFollowing(_ member: SessionController) {
        members[ObjectIdentifier(member)] = nil
    }

    /// `member`'s streams are gone (mainloop lock held). The context goes with its last
    /// member, or as soon as it has failed: the next session to connect makes a new one.
    func leave(_ member: SessionController) {
        members[ObjectIdentifier(member)] = nil
        if members.isEmpty || context?.state == .failed || context?.state == .terminated { dropContext() }
    }

    /// Disconnects and releases the context.
    private func dropContext() {
        context?.onStateChange(nil)
        context?.disconnect()
        context = nil
    }
}
