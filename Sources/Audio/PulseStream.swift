import CPulseAudio
import ParleyCore

/// A record or playback stream (`pa_stream`): the only place its C functions
/// are called.
///
/// Not thread-safe, like the C object: on a threaded mainloop, call it with the
/// mainloop lock held (callbacks already hold it). Callbacks run on the
/// mainloop's thread.
final class PulseStream {
    /// The `pa_stream`; one reference, dropped with this object.
    let handle: OpaquePointer
    /// The context the stream belongs to, which reports its errors.
    let context: PulseContext
    /// The Swift side of the callbacks set with `on…`.
    var callbacks = Callbacks()

    /// A new stream of s16 samples in `format` (`pa_stream_new_with_proplist`).
    init(context: PulseContext, name: String, format: AudioFormat, properties: PulsePropertyList) throws {
        var spec = pa_sample_spec(format: PA_SAMPLE_S16LE, rate: UInt32(format.sampleRate),
                                  channels: UInt8(format.channels))
        guard let handle = pa_stream_new_with_proplist(context.handle, name, &spec, nil, properties.handle) else {
            throw context.lastError
        }
        self.handle = handle
        self.context = context
    }

    /// Connects for recording from `device` (nil: the default) (`pa_stream_connect_record`).
    func connectRecord(device: String?, buffer: PulseBufferAttributes, flags: Flags) throws {
        var attributes = buffer.cValue
        try context.check(pa_stream_connect_record(handle, device, &attributes, flags.cValue))
    }

    /// Connects for playback to `device` (nil: the default) (`pa_stream_connect_playback`).
    func connectPlayback(device: String?, buffer: PulseBufferAttributes, flags: Flags) throws {
        var attributes = buffer.cValue
        try context.check(pa_stream_connect_playback(handle, device, &attributes, flags.cValue, nil, nil))
    }

    /// Where the stream is (`pa_stream_get_state`).
    var state: PulseState { PulseState(pa_stream_get_state(handle)) }

    /// The device the stream is connected to (`pa_stream_get_device_name`), nil when unknown.
    var deviceName: String? { pa_stream_get_device_name(handle).map { String(cString: $0) } }

    /// Bytes ready to be read (`pa_stream_readable_size`).
    var readableSize: Int { pa_stream_readable_size(handle) }

    /// The next fragment recorded (`pa_stream_peek`): nil data with a length is a hole.
    func peek() throws -> (data: UnsafeRawPointer?, length: Int) {
        var data: UnsafeRawPointer?
        var length = 0
        try context.check(pa_stream_peek(handle, &data, &length))
        return (data, length)
    }

    /// Drops the fragment `peek` returned (`pa_stream_drop`).
    func drop() throws {
        try context.check(pa_stream_drop(handle))
    }

    /// Takes every fragment the server has, in order: `body` gets its samples, or nil for a
    /// hole in the recording, and the sample count either way.
    func readFragments(_ body: (UnsafeBufferPointer<Int16>?, Int) -> Void) {
        while readableSize > 0 {
            guard let (data, length) = try? peek(), length > 0 else { return }
            let count = length / 2
            body(data.map { UnsafeBufferPointer(start: $0.bindMemory(to: Int16.self, capacity: count), count: count) }, count)
            try? drop()
        }
    }

    /// Bytes the server accepts now (`pa_stream_writable_size`).
    var writableSize: Int { pa_stream_writable_size(handle) }

    /// Writes samples after those written before (`pa_stream_write`, `PA_SEEK_RELATIVE`).
    func write(_ samples: UnsafeBufferPointer<Int16>) throws {
        try context.check(pa_stream_write(handle, samples.baseAddress, samples.count * 2, nil, 0, PA_SEEK_RELATIVE))
    }

    /// Asks the server to report when everything written has played (`pa_stream_drain`).
    func drain(_ completion: @escaping (Bool) -> Void) -> PulseOperation? {
        let callback = PulseCallback<Bool>.retained(completion)
        return PulseOperation(pa_stream_drain(handle, { _, success, userData in
            PulseCallback<Bool>.call(userData, with: success != 0)
        }, callback.userData), callback: callback)
    }

    /// Drops what the server has not played yet (`pa_stream_flush`).
    func flush(_ completion: @escaping (Bool) -> Void) -> PulseOperation? {
        let callback = PulseCallback<Bool>.retained(completion)
        return PulseOperation(pa_stream_flush(handle, { _, success, userData in
            PulseCallback<Bool>.call(userData, with: success != 0)
        }, callback.userData), callback: callback)
    }

    /// Pauses or resumes the stream (`pa_stream_cork`).
    func cork(_ paused: Bool) -> PulseOperation? {
        PulseOperation(pa_stream_cork(handle, paused ? 1 : 0, nil, nil))
    }

    /// The stream's latency in seconds from cached timing data, never waiting
    /// (`pa_stream_get_latency`); nil when unknown or negative.
    var latency: Double? {
        var microseconds: pa_usec_t = 0
        var negative: Int32 = 0
        guard pa_stream_get_latency(handle, &microseconds, &negative) == 0, negative == 0 else { return nil }
        return Double(microseconds) / 1_000_000
    }

    /// Disconnects from the server (`pa_stream_disconnect`).
    func disconnect() {
        pa_stream_disconnect(handle)
    }

    /// Drops the reference (`pa_stream_unref`).
    deinit {
        pa_stream_unref(handle)
    }
}
