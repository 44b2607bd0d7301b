import CPulseAudio

/// libpulse's plain mainloop (`pa_mainloop`), iterated by hand on the calling
/// thread: for a one-shot question to the server, not for the conversation.
final class PulseMainloop {
    private let handle: OpaquePointer

    /// A new mainloop (`pa_mainloop_new`); nil when out of memory.
    init?() {
        guard let handle = pa_mainloop_new() else { return nil }
        self.handle = handle
    }

    /// The mainloop's API table, for a context (`pa_mainloop_get_api`).
    var api: UnsafeMutablePointer<pa_mainloop_api> { pa_mainloop_get_api(handle) }

    /// Gets ready to wait at most `timeoutMicroseconds` (`pa_mainloop_prepare`).
    func prepare(timeoutMicroseconds: Int32) {
        pa_mainloop_prepare(handle, timeoutMicroseconds)
    }

    /// Waits for an event or the timeout (`pa_mainloop_poll`).
    func poll() {
        pa_mainloop_poll(handle)
    }

    /// Runs the callbacks of what happened (`pa_mainloop_dispatch`).
    func dispatch() {
        pa_mainloop_dispatch(handle)
    }

    /// Frees the mainloop (`pa_mainloop_free`).
    deinit {
        pa_mainloop_free(handle)
    }
}
