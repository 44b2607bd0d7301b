import CPulseAudio

/// A request libpulse is carrying out (`pa_operation`): one reference to it, and
/// the callback user data it will release.
///
/// Dropping the object drops the reference; the request still completes unless
/// it is cancelled. Keep the object while the request runs if it may be cancelled:
/// the callback's user data is released with it then.
final class PulseOperation {
    private let handle: OpaquePointer
    /// Releases the callback's user data when the callback will never run.
    private let releaseCallback: (() -> Void)?

    /// Takes over the reference a `pa_*` request returned; nil when the request failed.
    init?(_ handle: OpaquePointer?) {
        guard let handle else { return nil }
        self.handle = handle
        releaseCallback = nil
    }

    /// Takes over the reference a `pa_*` request returned, with `callback` its user data;
    /// nil when the request failed (then `callback` is released: it will never run).
    init?(_ handle: OpaquePointer?, callback: PulseRetainedCallback) {
        guard let handle else {
            callback.release()
            return nil
        }
        self.handle = handle
        releaseCallback = callback.release
    }

    /// Whether the request is still under way (`pa_operation_get_state`).
    var isRunning: Bool { pa_operation_get_state(handle) == PA_OPERATION_RUNNING }

    /// Stops the request: its callback will not run (`pa_operation_cancel`).
    func cancel() {
        guard isRunning else { return }
        pa_operation_cancel(handle)
    }

    /// Drops the reference (`pa_operation_unref`), and the callback's user data when the
    /// request was cancelled (by `cancel()`, or by libpulse when the connection went).
    deinit {
        if pa_operation_get_state(handle) == PA_OPERATION_CANCELLED { releaseCallback?() }
        pa_operation_unref(handle)
    }
}

/// A retained callback as libpulse's `void *userdata`, and how to release it unused.
struct PulseRetainedCallback {
    /// What libpulse passes back to the C callback.
    let userData: UnsafeMutableRawPointer
    /// Releases the callback when it will never run.
    let release: () -> Void
}

/// A Swift callback held for libpulse as retained user data, released after its last call.
final class PulseCallback<Value> {
    private let body: (Value) -> Void

    private init(_ body: @escaping (Value) -> Void) {
        self.body = body
    }

    /// Retains `body` as user data for one request.
    static func retained(_ body: @escaping (Value) -> Void) -> PulseRetainedCallback {
        let userData = Unmanaged.passRetained(PulseCallback(body)).toOpaque()
        return PulseRetainedCallback(userData: userData) {
            Unmanaged<PulseCallback>.fromOpaque(userData).release()
        }
    }

    /// Calls the callback behind `userData`; releases it when this is the last call.
    static func call(_ userData: UnsafeMutableRawPointer?, with value: Value, last: Bool = true) {
        let callback = Unmanaged<PulseCallback>.fromOpaque(userData!)
        callback.takeUnretainedValue().body(value)
        if last { callback.release() }
    }
}
