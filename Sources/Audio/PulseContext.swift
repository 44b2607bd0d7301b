import CPulseAudio
import Foundation

/// A connection to a PulseAudio server (`pa_context`): the only place its C
/// functions are called.
///
/// Not thread-safe, like the C object: on a threaded mainloop, call it with the
/// mainloop lock held (callbacks already hold it). Callbacks run on the
/// mainloop's thread.
final class PulseContext {
    /// The `pa_context`; one reference, dropped with this object.
    let handle: OpaquePointer
    private var stateChanged: (() -> Void)?
    /// The copy of the cookie libpulse reads when it connects; nil for libpulse's own cookie.
    private var cookieCopy: CookieCopy?

    /// A new, unconnected context named `name` on a mainloop's API table
    /// (`pa_context_new_with_proplist`); nil when libpulse cannot make one (out of memory).
    ///
    /// `cookie`: the cookie to show the server, instead of libpulse's own, as its file holds it
    /// now; without one, the cookie `$PULSE_COOKIE` names. libpulse reads a cookie file, and rewrites one that is
    /// short, when it connects, from the path `$PULSE_COOKIE` held when the context was
    /// created; so the variable names a private copy of the bytes (`CookieCopy`, kept as long
    /// as the context) while the context is created, every creation of this process taken
    /// one at a time, and is put back after. A `$PULSE_COOKIE` file that is not a cookie
    /// (`PulseCookie`) is hidden from libpulse, which then uses its own. Only where no copy
    /// can be made is libpulse given the file itself: a regular file of exactly the cookie's
    /// size, which libpulse reads and never writes.
    init?(api: UnsafeMutablePointer<pa_mainloop_api>, name: String, properties: PulsePropertyList? = nil,
          cookie: PulseCookie? = nil) {
        Self.creation.lock()
        defer { Self.creation.unlock() }
        let before = getenv("PULSE_COOKIE").map { String(cString: $0) }
        // The file is read again for each context: a server that made a new cookie is shown it
        // when it comes back; a file that is no longer a cookie leaves the bytes read before.
        var shown = cookie.map { (try? PulseCookie(readingFile: $0.path)) ?? $0 }
        if shown == nil, let variable = PulseCookie.fromEnvironment() {
            shown = try? variable.get()
        }
        if let shown {
            cookieCopy = CookieCopy(shown)
            setenv("PULSE_COOKIE", cookieCopy?.path ?? shown.path, 1)
        } else {
            unsetenv("PULSE_COOKIE")
        }
        let made = pa_context_new_with_proplist(api, name, properties?.handle)
        if let before { setenv("PULSE_COOKIE", before, 1) } else { unsetenv("PULSE_COOKIE") }
        guard let handle = made else { return nil }
        self.handle = handle
    }

    /// A new, unconnected context that names the application `applicationName` to the server
    /// (its `application.name`), showing it `cookie`; nil when libpulse cannot make one.
    convenience init?(api: UnsafeMutablePointer<pa_mainloop_api>, applicationName: String, cookie: PulseCookie?) {
        let properties = PulsePropertyList()
        properties.set(PulsePropertyList.applicationName, to: applicationName)
        self.init(api: api, name: applicationName, properties: properties, cookie: cookie)
    }

    /// Held while a context is created, `$PULSE_COOKIE` set for it.
    private static let creation = NSLock()

    /// Starts connecting to `server` (nil: the default) without spawning one
    /// (`pa_context_connect` with `PA_CONTEXT_NOAUTOSPAWN`).
    func connect(server: String?) throws {
        try check(pa_context_connect(handle, server, PA_CONTEXT_NOAUTOSPAWN, nil))
    }

    /// Where the connection is (`pa_context_get_state`).
    var state: PulseState { PulseState(pa_context_get_state(handle)) }

    /// The context's last error (`pa_context_errno`).
    var lastError: PulseError { PulseError(rawValue: pa_context_errno(handle)) }

    /// Throws the context's last error when a call returned a negative status.
    func check(_ status: Int32) throws {
        guard status >= 0 else { throw lastError }
    }

    /// Runs `body` at every state change, or nothing for nil (`pa_context_set_state_callback`).
    func onStateChange(_ body: (() -> Void)?) {
        stateChanged = body
        guard body != nil else { return pa_context_set_state_callback(handle, nil, nil) }
        pa_context_set_state_callback(handle, { _, userData in
            let callback = PulseContext.from(userData).stateChanged
            callback?()
        }, userData)
    }

    /// Closes the connection (`pa_context_disconnect`).
    func disconnect() {
        pa_context_disconnect(handle)
    }

    /// Drops the reference (`pa_context_unref`).
    deinit {
        pa_context_unref(handle)
    }

    /// This context as unretained callback user data: its owner keeps it alive and
    /// clears the callbacks before dropping it.
    var userData: UnsafeMutableRawPointer { Unmanaged.passUnretained(self).toOpaque() }

    static func from(_ userData: UnsafeMutableRawPointer?) -> PulseContext {
        Unmanaged<PulseContext>.fromOpaque(userData!).takeUnretainedValue()
    }
}
