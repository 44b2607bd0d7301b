import CPulseAudio

/// The stream's notifications, as Swift closures run on the mainloop's thread.
///
/// The user data libpulse gets is the stream object, unretained: its owner keeps
/// it alive and clears the callbacks (`clearCallbacks()`) before dropping it.
extension PulseStream {
    /// The closures behind the C callbacks.
    struct Callbacks {
        var stateChanged: (() -> Void)?
        var readable: (() -> Void)?
        var writable: (() -> Void)?
        var started: (() -> Void)?
        var event: ((Event) -> Void)?
    }

    /// A stream event the server sends (`pa_stream_event_cb_t`).
    enum Event: Equatable {
        /// Another application asks us to pause (`PA_STREAM_EVENT_REQUEST_CORK`).
        case requestCork
        /// …and to resume (`PA_STREAM_EVENT_REQUEST_UNCORK`).
        case requestUncork
        /// Any other event, by name.
        case other(String)

        /// Reads an event name.
        init(name: String) {
            switch name {
            case PA_STREAM_EVENT_REQUEST_CORK: self = .requestCork
            case PA_STREAM_EVENT_REQUEST_UNCORK: self = .requestUncork
            default: self = .other(name)
            }
        }

        /// The event's name, as libpulse sends it.
        var name: String {
            switch self {
            case .requestCork: return PA_STREAM_EVENT_REQUEST_CORK
            case .requestUncork: return PA_STREAM_EVENT_REQUEST_UNCORK
            case let .other(name): return name
            }
        }
    }

    /// Runs `body` at every state change (`pa_stream_set_state_callback`).
    func onStateChange(_ body: @escaping () -> Void) {
        callbacks.stateChanged = body
        pa_stream_set_state_callback(handle, { _, userData in
            let callback = PulseStream.from(userData).callbacks.stateChanged
            callback?()
        }, userData)
    }

    /// Runs `body` when recorded data can be read (`pa_stream_set_read_callback`).
    func onReadable(_ body: @escaping () -> Void) {
        callbacks.readable = body
        pa_stream_set_read_callback(handle, { _, _, userData in
            let callback = PulseStream.from(userData).callbacks.readable
            callback?()
        }, userData)
    }

    /// Runs `body` when the server wants data to play (`pa_stream_set_write_callback`).
    func onWritable(_ body: @escaping () -> Void) {
        callbacks.writable = body
        pa_stream_set_write_callback(handle, { _, _, userData in
            let callback = PulseStream.from(userData).callbacks.writable
            callback?()
        }, userData)
    }

    /// Runs `body` when the server starts playing (`pa_stream_set_started_callback`).
    func onStarted(_ body: @escaping () -> Void) {
        callbacks.started = body
        pa_stream_set_started_callback(handle, { _, userData in
            let callback = PulseStream.from(userData).callbacks.started
            callback?()
        }, userData)
    }

    /// Runs `body` for every stream event (`pa_stream_set_event_callback`).
    func onEvent(_ body: @escaping (Event) -> Void) {
        callbacks.event = body
        pa_stream_set_event_callback(handle, { _, name, _, userData in
            let callback = PulseStream.from(userData).callbacks.event
            callback?(Event(name: name.map { String(cString: $0) } ?? ""))
        }, userData)
    }

    /// Stops every callback (the `pa_stream_set_…_callback` functions with NULL).
    func clearCallbacks() {
        pa_stream_set_state_callback(handle, nil, nil)
        pa_stream_set_read_callback(handle, nil, nil)
        pa_stream_set_write_callback(handle, nil, nil)
        pa_stream_set_started_callback(handle, nil, nil)
        pa_stream_set_event_callback(handle, nil, nil)
        callbacks = Callbacks()
    }

    private var userData: UnsafeMutableRawPointer { Unmanaged.passUnretained(self).toOpaque() }

    private static func from(_ userData: UnsafeMutableRawPointer?) -> PulseStream {
        Unmanaged<PulseStream>.fromOpaque(userData!).takeUnretainedValue()
    }
}
