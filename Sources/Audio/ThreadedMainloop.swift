import CPulseAudio

/// libpulse's threaded mainloop: one thread that runs every PulseAudio callback.
///
/// Lock discipline (libpulse's rule): callbacks run on the mainloop thread with
/// the lock held; any other thread holds the lock around every `pa_*` call and
/// around the state the callbacks share. The lock is only ever held for short,
/// non-blocking work, so taking it from a Swift task does not stall the pool.
final class ThreadedMainloop: @unchecked Sendable {  // immutable handle; libpulse's own lock guards its use
    /// The `pa_threaded_mainloop`; freed with this object.
    let handle: OpaquePointer

    /// Creates the mainloop and starts its thread (`pa_threaded_mainloop_new`, `_start`).
    /// Both fail only when the process is out of memory or threads: a precondition.
    init() {
        guard let handle = pa_threaded_mainloop_new() else {
            preconditionFailure("libpulse could not create a mainloop (out of memory)")
        }
        guard pa_threaded_mainloop_start(handle) >= 0 else {
            preconditionFailure("libpulse could not start its mainloop thread")
        }
        self.handle = handle
    }

    /// The mainloop's API table, for `pa_context_new`.
    var api: UnsafeMutablePointer<pa_mainloop_api> { pa_threaded_mainloop_get_api(handle) }

    /// Whether the caller is the mainloop thread (inside a callback, the lock is already held).
    var isCurrentThread: Bool { pa_threaded_mainloop_in_thread(handle) != 0 }

    /// Runs `body` holding the mainloop lock (`pa_threaded_mainloop_lock`).
    func withLock<Result>(_ body: () throws -> Result) rethrows -> Result {
        if isCurrentThread { return try body() }
        pa_threaded_mainloop_lock(handle)
        defer { pa_threaded_mainloop_unlock(handle) }
        return try body()
    }

    /// Stops the thread (`pa_threaded_mainloop_stop`); the lock stays usable, so state
    /// can still be read. Joins the thread, so it blocks briefly: call it off Swift's
    /// cooperative pool, never from a callback.
    func stop() {
        precondition(!isCurrentThread, "the mainloop cannot stop itself from a callback")
        pa_threaded_mainloop_stop(handle)
    }

    /// Frees the mainloop (`pa_threaded_mainloop_free`, which stops a running thread first).
    deinit {
        pa_threaded_mainloop_free(handle)
    }
}
